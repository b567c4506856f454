// The pawntb explorer page (placeholder).
