#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# DKMS's POST_BUILD (packaging/dkms.conf), run in the build directory
# after each build: dxgpmo's Module.symvers for the kernel it was built
# for, kept beside the module in DKMS's tree,
# /var/lib/dkms/dxgpmo/VERSION/KVER/ARCH/module/Module.symvers, where a
# driver built against the installed package finds it (dxgpmo-dkms's
# /usr/share/dxgpmo/dxgpmo.mk) and where it goes when DKMS removes that
# build.  DKMS 3.2 (trixie) copies it there itself, DKMS 3.0 (bookworm)
# does not: this copy makes the path the same on both.
#
# usage: dkms-post-build.sh DKMS_TREE/dxgpmo/VERSION/KVER/ARCH
set -eu

if [ $# -ne 1 ]; then
	echo "usage: dkms-post-build.sh DKMS_TREE/dxgpmo/VERSION/KVER/ARCH" >&2
	exit 2
fi
if [ ! -s Module.symvers ]; then
	echo "dkms-post-build.sh: no Module.symvers in $(pwd)" >&2
	exit 1
fi
if [ ! -d "$1/module" ]; then
	echo "dkms-post-build.sh: $1/module: no such directory" >&2
	exit 1
fi
cp -f Module.symvers "$1/module/Module.symvers"
