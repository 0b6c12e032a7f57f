#!/usr/bin/env bash
# A current Neovim (Debian 13's 0.10.4) next to the system's 0.7, for tests/lsp/test_neovim.py:
# the .debs of neovim and of the libraries it needs, trixie's glibc included, unpacked under
# .cache/neovim-current/ and started through that glibc's loader, so nothing of the system
# changes. Needs apt-get and Debian's archive (no root). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's stable updates replace the revision (0.10.4-8 became 0.10.4-8+deb13u1 and the old
# one left the archive): pin the upstream release, take trixie's current revision of it.
UPSTREAM=0.10.4
dir=.cache/neovim-current
stamp="$dir/.complete-$UPSTREAM"
[ -f "$stamp" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1 || [ "$(dpkg --print-architecture)" != amd64 ]; then
  echo "setup: not Debian on amd64: the current-Neovim test will be skipped" >&2
  exit 0
fi

rm -rf "$dir"
mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/debs" "$dir/root"
echo "deb http://deb.debian.org/debian trixie main" > "$dir/apt/sources.list"
apt=(-o "Dir::Etc::sourcelist=$PWD/$dir/apt/sources.list" -o Dir::Etc::sourceparts=/dev/null
  -o "Dir::State::Lists=$PWD/$dir/apt/lists" -o "Dir::Cache=$PWD/$dir/apt/cache"
  -o Debug::NoLocking=1 -o APT::Sandbox::User="$(id -un)")
apt-get "${apt[@]}" -qq update
VERSION=$(apt-cache "${apt[@]}" policy neovim | awk '/Candidate:/ {print $2}')
case "$VERSION" in
  "$UPSTREAM"-*) ;;
  *) echo "setup: Debian trixie has neovim ${VERSION:-none}, not $UPSTREAM: update UPSTREAM in $0" >&2; exit 1 ;;
esac
echo "setup: Neovim $VERSION (Debian trixie) in $dir"
(
  cd "$dir/debs"
  apt-get "${apt[@]}" -qq download "neovim=$VERSION" "neovim-runtime=$VERSION" libc6 libgcc-s1 \
    libluajit-5.1-2 libluajit-5.1-common libmsgpack-c2 libtree-sitter0.22 libunibilium4 \
    libuv1t64 libvterm0 lua-lpeg lua-luv
  for deb in *.deb; do dpkg-deb -x "$deb" ../root; done
)
rm -rf "$dir/apt" "$dir/debs"
cat > "$dir/nvim" <<'EOF'
#!/bin/sh
# Neovim from Debian trixie, with its own glibc (see scripts/install-neovim-current.sh).
root="$(dirname "$(readlink -f "$0")")/root"
lib="$root/usr/lib/x86_64-linux-gnu"
VIMRUNTIME="$root/usr/share/nvim/runtime" exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib" \
  "$root/usr/bin/nvim" "$@"
EOF
chmod +x "$dir/nvim"
"$dir/nvim" --version | head -1
touch "$stamp"
