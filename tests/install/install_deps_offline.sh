#!/bin/sh
# tools/install-deps.sh, with every Debian package present, needs no npm
# registry: README command 1 works offline. npm is replaced by one that fails
# as npm ci does offline with an empty cache (ENOTCACHED); apt-get and sudo by
# ones that say they were called, so that a machine still missing packages
# skips this test (exit 77) instead of installing them.
# Usage: install_deps_offline.sh SOURCE_DIR
set -u
source_dir=$1
fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
for tool in apt-get sudo; do
  printf '#!/bin/sh\necho "FAKE-%s $*"\nexit 3\n' "$tool" > "$fake/$tool"
done
printf '#!/bin/sh\necho "npm error code ENOTCACHED (fake npm: no registry)" >&2\nexit 1\n' \
  > "$fake/npm"
chmod +x "$fake"/*
out=$(PATH="$fake:$PATH" npm_config_registry=http://127.0.0.1:9 npm_config_cache="$fake/cache" \
  sh "$source_dir/tools/install-deps.sh" 2>&1)
status=$?
case "$out" in
  *FAKE-apt-get* | *FAKE-sudo*)
    echo "SKIPPED: Debian packages are missing (run tools/install-deps.sh first): $out"
    exit 77 ;;
esac
if [ "$status" -ne 0 ]; then
  echo "FAILED: install-deps.sh exited $status without an npm registry:"
  echo "$out"
  exit 1
fi
echo "$out"
