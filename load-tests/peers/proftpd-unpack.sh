#!/usr/bin/env bash
# Makes proftpd runnable for the pyftpdlib table without installing it: Debian's proftpd-core and vsftpd conflict
# (both provide ftp-server), and the table runs both. Downloads the proftpd-core package with apt-get (from the
# configured Debian mirror), unpacks it with dpkg -x into a cache folder, installs the libraries it links (they
# conflict with nothing) and prints the path of its proftpd binary. Does nothing but print it when it is there.
#
# usage: load-tests/peers/proftpd-unpack.sh [CACHE_DIR]   (default ~/.cache/wharf-loadtests/proftpd)
# An installed proftpd (apt-get install proftpd-core, without vsftpd) is used by run.sh instead of this one.
set -euo pipefail

dir=${1:-$HOME/.cache/wharf-loadtests/proftpd}
binary=$dir/root/usr/sbin/proftpd
if [ ! -x "$binary" ]; then
	command -v apt-get > /dev/null && command -v dpkg > /dev/null \
		|| { echo "proftpd-unpack: needs apt-get and dpkg (Debian or Ubuntu)" >&2; exit 1; }
	mkdir -p "$dir"
	# apt-get download writes to the current folder, as the _apt user when it can: a folder it may write to.
	work=$(mktemp -d)
	chmod 755 "$work"
	(cd "$work" && apt-get download -q proftpd-core >&2)
	rm -rf "$dir/root"
	dpkg -x "$work"/proftpd-core_*.deb "$dir/root"
	cp "$work"/proftpd-core_*.deb "$dir/"
	rm -rf "$work"
fi
# When libraries it links are missing: its package's dependencies (the first of each alternative), which conflict
# with nothing; apt-get leaves those already installed alone.
missing=$(ldd "$binary" | awk '/not found/ {print $1}')
if [ -n "$missing" ]; then
	packages=$(dpkg-deb -f "$dir"/proftpd-core_*.deb Depends | tr ',' '\n' | sed -E 's/\|.*//; s/\(.*\)//; s/ //g')
	echo "proftpd-unpack: missing $missing; installing proftpd-core's dependencies: $(echo $packages)" >&2
	# shellcheck disable=SC2086
	apt-get install -y -q $packages >&2
	missing=$(ldd "$binary" | awk '/not found/ {print $1}')
	[ -z "$missing" ] || { echo "proftpd-unpack: still missing: $missing" >&2; exit 1; }
fi
echo "$binary"
