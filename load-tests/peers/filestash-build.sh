#!/usr/bin/env bash
# Builds Filestash, the peer of the two Filestash tables, from sources you cloned yourself, into a cache folder
# outside the repository (nothing of Filestash is in this repository):
#
#   git clone https://github.com/mickael-kerjean/filestash   FILESTASH_SRC
#   git clone https://github.com/nothings/stb                STB_SRC
#   load-tests/peers/filestash-build.sh FILESTASH_SRC STB_SRC [OUT_DIR]
#
# OUT_DIR defaults to ~/.cache/wharf-loadtests/filestash; run.sh looks for OUT_DIR/filestash there (or takes
# --filestash FILE). The clones are only read: the build works on a copy of FILESTASH_SRC's checked-out commit.
#
# What Filestash's own "make" would download from elsewhere comes from the clones and the package registries:
# stb_image.h v2.28 from STB_SRC (commit 5736b15, as Filestash's generator pins it), xterm 3.12.2 from npm
# (npm pack), Go modules through the Go module proxy. Three changes to the copy, made here with sed:
# - plg_video_transcoder is left out: it needs FFmpeg 6 or later (Debian 12 ships 5.1), and no table uses video;
# - -l:libsharpyuv.a is dropped where the system's libwebp has no such library (libwebp before 1.3);
# - FILESTASH_BIND_ADDR, when set, is the address it listens on (run.sh: 127.0.0.1; upstream listens on every
#   interface).
# Needs: Go (the version Filestash's go.mod names, or later; GOTOOLCHAIN=local, no toolchain download), gcc,
# npm, git, and the C libraries of its image plugin (Debian: libraw-dev libgif-dev libwebp-dev liblcms2-dev
# libjpeg-dev libpng-dev zlib1g-dev; installed with apt-get when missing and running as root). About three minutes
# of CPU; the binary is about 85 MB. Writes OUT_DIR/filestash.version, which the reports show.
set -euo pipefail

usage() { sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit "${1:-2}"; }
[ $# -ge 2 ] || usage
case "$1" in -h|--help) usage 0 ;; esac
command -v git > /dev/null || { echo "filestash-build: git is needed" >&2; exit 1; }
src=$(cd "$1" && pwd)
stb=$(cd "$2" && pwd)
out=${3:-$HOME/.cache/wharf-loadtests/filestash}
stb_commit=5736b15f7ea0ffb08dd38af21067c314d6a3aae9   # stb_image v2.28, the one Filestash's generator fetches
xterm_version=3.12.2

[ -f "$src/go.mod" ] && grep -q 'module github.com/mickael-kerjean/filestash' "$src/go.mod" \
	|| { echo "filestash-build: $1 is not a clone of Filestash (no go.mod of github.com/mickael-kerjean/filestash)" >&2; exit 1; }
git -C "$stb" cat-file -e "$stb_commit:stb_image.h" 2>/dev/null \
	|| { echo "filestash-build: $2 is not a clone of stb with commit $stb_commit" >&2; exit 1; }
for tool in go gcc npm; do
	command -v "$tool" > /dev/null || { echo "filestash-build: $tool is needed" >&2; exit 1; }
done

# The C libraries of the image plugin.
missing=()
for package in libraw-dev libgif-dev libwebp-dev liblcms2-dev libjpeg-dev libpng-dev zlib1g-dev; do
	dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
		apt-get install -y -q "${missing[@]}"
	else
		echo "filestash-build: install ${missing[*]} first" >&2; exit 1
	fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tree=$work/filestash
mkdir -p "$tree"
# The checked-out commit, as git has it: no build products or local edits of the clone.
git -C "$src" archive HEAD | tar -x -C "$tree"
commit=$(git -C "$src" rev-parse --short=8 HEAD)
cd "$tree"

echo "== Filestash $commit: sources"
# Generated constants: the build's commit (git archive has no history for its generator to read) and the MIME table.
cat > server/pkg/env/constants_generated.go <<EOF
package env

var (
    BUILD_REF = "$commit"
    BUILD_DATE = "$(date -u +%Y%m%d)"
)
EOF
(cd server/pkg/mime && go run generator.go)
git -C "$stb" show "$stb_commit:stb_image.h" > server/plugin/plg_image_c/image_psd_vendor.h
(cd "$work" && npm pack --silent "xterm@$xterm_version" > /dev/null && mkdir xterm && tar -xzf "xterm-$xterm_version.tgz" -C xterm)
for folder in server/plugin/plg_handler_console/src server/plugin/plg_widget_console/assets/vendor; do
	mkdir -p "$folder"
	cat "$work/xterm/package/dist/xterm.js" "$work/xterm/package/dist/addons/fit/fit.js" > "$folder/xterm.js"
	cp "$work/xterm/package/dist/xterm.css" "$folder/xterm.css"
done

# The three changes (see the top of this file); each must apply, or the sources have moved on from this script.
change() {   # change FILE SED_EXPRESSION WHAT: applies it and fails when the file did not change
	local before
	before=$(sha256sum "$1")
	sed -i "$2" "$1"
	[ "$before" != "$(sha256sum "$1")" ] || { echo "filestash-build: could not $3 in $1" >&2; exit 1; }
}
change server/plugin/index.go '/plugin\/plg_video_transcoder"/d' "leave out plg_video_transcoder"
if ! ls /usr/lib/*/libsharpyuv.a /usr/lib/libsharpyuv.a > /dev/null 2>&1; then
	change server/plugin/plg_image_c/image_webp.go 's/ -l:libsharpyuv\.a//' "drop -l:libsharpyuv.a"
fi
change server/plugin/plg_starter_http/index.go \
	's|Addr: *fmt.Sprintf(":%d", port),|Addr: fmt.Sprintf("%s:%d", os.Getenv("FILESTASH_BIND_ADDR"), port),|' \
	"make the listening address FILESTASH_BIND_ADDR"
grep -q '"os"' server/plugin/plg_starter_http/index.go \
	|| change server/plugin/plg_starter_http/index.go 's|^\t"net/http"$|\t"net/http"\n\t"os"|' "import os"

echo "== Filestash $commit: go build (cgo, tags fts5)"
export GOTOOLCHAIN=local CGO_ENABLED=1
go mod download
mkdir -p "$out"
go build --tags fts5 -o "$out/filestash.new" cmd/main.go
mv "$out/filestash.new" "$out/filestash"
echo "$commit ($(go version | awk '{print $3}'), cgo, tags fts5; without plg_video_transcoder)" > "$out/filestash.version"
echo "== built $out/filestash: Filestash $(cat "$out/filestash.version")"
