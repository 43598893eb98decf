# SPDX-License-Identifier: GPL-2.0
#
# libdxgk's examples built as a port of your own is: with the flags
# pkg-config gives for libdxgk, from libdxgk-dev's libdxgk.pc or, in the
# source tree after 'make tools' and 'eval "$(make -s env)"', from the
# tree's libdxgk-uninstalled.pc.  libdxgk-dev installs this file as
# /usr/share/doc/libdxgk-dev/examples/Makefile.  The programs are written
# to the current directory and the sources read from this file's, so the
# installed directory needs no copy:
#
#     mkdir dxgk-examples && cd dxgk-examples
#     make -f /usr/share/doc/libdxgk-dev/examples/Makefile
#     ./dxgk-mobile-gpu          # needs the module loaded and /dev/dxgpmo
#
# (The tree's own build links them with libdxgk.a instead, for the test
# VM, which has no libdxgk.so.0: this file is not that build.)

PKG_CONFIG ?= pkg-config
CFLAGS ?= -O2 -g
src := $(dir $(lastword $(MAKEFILE_LIST)))
PROGRAMS := dxgk-mobile-gpu dxgk-live-migration

LIBDXGK_CFLAGS := $(shell $(PKG_CONFIG) --cflags libdxgk)
LIBDXGK_LIBS := $(shell $(PKG_CONFIG) --libs libdxgk)
ifeq ($(LIBDXGK_LIBS),)
$(error pkg-config finds no libdxgk: install libdxgk-dev, or in the source tree run make tools and eval "$$(make -s env)")
endif

all: $(PROGRAMS)

$(PROGRAMS): %: $(src)%.c $(src)example_checks.h
	$(CC) $(CPPFLAGS) $(CFLAGS) -Wall -Wextra $(LIBDXGK_CFLAGS) $(LDFLAGS) \
		-o $@ $< $(LIBDXGK_LIBS)

clean:
	rm -f $(PROGRAMS)

.PHONY: all clean
