#!/usr/bin/env bash
# Builds SeaweedFS's `weed` from the Go module proxy into a cache folder, once per version, for the opt-in
# s3 tests against a second S3 server (./mvnw -Pseaweedfs; see S3SeaweedFsStorageContractTests). The build
# happens in a throwaway module that requires SeaweedFS and replaces github.com/tyler-smith/go-bip39, whose
# repository is gone, with the fork that keeps the same code; SeaweedFS's own go.mod cannot do that for a
# module that depends on it. It takes a long while the first time (a large program on few cores).
#
# Usage: seaweedfs-build.sh VERSION CACHE_FOLDER   (prints the path of the program)
set -euo pipefail

version=$1
cache=$2
binary="$cache/weed-$version"
if [ -x "$binary" ]; then
	echo "$binary"
	exit 0
fi
if ! command -v go >/dev/null; then
	echo "seaweedfs-build.sh: Go is needed to build SeaweedFS (install golang)" >&2
	exit 1
fi
mkdir -p "$cache"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/go.mod" <<MOD
module wharf.test/seaweedfs

go 1.24

require github.com/seaweedfs/seaweedfs $version

replace github.com/tyler-smith/go-bip39 => github.com/cosmos/go-bip39 v1.0.0
MOD
cat >"$work/tools.go" <<'GO'
//go:build tools

package seaweedfs

import _ "github.com/seaweedfs/seaweedfs/weed"
GO
cd "$work"
GOFLAGS=-mod=mod go mod tidy >&2
GOFLAGS=-mod=mod go build -o "$binary.partial" github.com/seaweedfs/seaweedfs/weed >&2
mv "$binary.partial" "$binary"
echo "$binary"
