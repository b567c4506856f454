// Assembling the table from the unit files without doubling the disk: the
// table is written into the work directory's table.partial in index order,
// and each unit file is deleted once the table durably holds all its slices
// (a checkpoint), so that the unit files and the table are never both whole
// on disk. A killed assembly resumes at its last checkpoint and writes the
// same bytes. FORMAT.md, "Appendix: the work directory", has the protocol.
#pragma once

#include <cstdint>
#include <filesystem>

#include "pawntb/progress.hpp"
#include "table_writer.hpp"
#include "units.hpp"
#include "work_dir.hpp"

namespace pawntb::generator_detail {

struct AssemblyResult {
  std::uint64_t file_size = 0;
  std::uint32_t block_count = 0;
  // The most bytes of unit files and table.partial on disk together, as
  // measured at each checkpoint.
  std::uint64_t peak_bytes = 0;
};

// Assembles the table of `index` at `output` (replacing it) from the unit
// files of `work`. Starts afresh with `totals` (the header's statistics,
// from every unit's summary) unless the work directory holds a checkpoint,
// which has its own. Deletes the unit files as it goes unless `keep_units`.
// Compresses on `threads` threads; `on_progress` gets stage "compress".
// Throws GenerateError naming the file at fault.
AssemblyResult assemble_table(const Index& index, const UnitPlan& units, const WorkDir& work,
                              const TableTotals& totals, const std::filesystem::path& output,
                              bool keep_units, unsigned threads,
                              const ProgressCallback& on_progress);

}  // namespace pawntb::generator_detail
