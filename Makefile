# Builds and installs tenantctl the way Swift command-line tools install:
#
#   make install                     # release build; binary, man page and shell completions under /usr/local
#   make install PREFIX=$HOME/.local # anywhere else (DESTDIR= for packagers)
#   make uninstall                   # removes exactly what install put there (same PREFIX)
#   make static                      # Linux: the Swift runtime linked in (runs without a Swift toolchain)
#
# Completions go where each shell looks under PREFIX: bash-completion's completions directory, zsh's
# site-functions (on $fpath of a zsh installed under the same prefix, Homebrew's included) and fish's
# vendor_completions.d. The man page is docs/tenantctl.1, generated from the argument parser (swift-argument-parser's
# generate-manual plugin, by scripts/update-cli-reference), installed in share/man/man1.

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
SWIFT_BUILD_FLAGS ?=
INSTALL ?= install

BINDIR := $(DESTDIR)$(PREFIX)/bin
BASH_COMPLETIONS := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSH_COMPLETIONS := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISH_COMPLETIONS := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
MANDIR := $(DESTDIR)$(PREFIX)/share/man/man1

RELEASE_FLAGS := -c release --product tenantctl $(SWIFT_BUILD_FLAGS)
STATIC_FLAGS := -c release --product tenantctl --static-swift-stdlib $(SWIFT_BUILD_FLAGS)

.PHONY: all build install uninstall static clean

all: build

build:
	$(SWIFT) build $(RELEASE_FLAGS)

install: build
	@set -e; \
	binary="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/tenantctl"; \
	$(INSTALL) -d "$(BINDIR)" "$(BASH_COMPLETIONS)" "$(ZSH_COMPLETIONS)" "$(FISH_COMPLETIONS)" "$(MANDIR)"; \
	$(INSTALL) -m 755 "$$binary" "$(BINDIR)/tenantctl"; \
	$(INSTALL) -m 644 docs/tenantctl.1 "$(MANDIR)/tenantctl.1"; \
	"$$binary" --generate-completion-script bash > "$(BASH_COMPLETIONS)/tenantctl"; \
	"$$binary" --generate-completion-script zsh > "$(ZSH_COMPLETIONS)/_tenantctl"; \
	"$$binary" --generate-completion-script fish > "$(FISH_COMPLETIONS)/tenantctl.fish"; \
	echo "installed $(BINDIR)/tenantctl, man page $(MANDIR)/tenantctl.1"; \
	echo "completions: $(BASH_COMPLETIONS)/tenantctl, $(ZSH_COMPLETIONS)/_tenantctl, $(FISH_COMPLETIONS)/tenantctl.fish"

uninstall:
	rm -f "$(BINDIR)/tenantctl" "$(BASH_COMPLETIONS)/tenantctl" "$(ZSH_COMPLETIONS)/_tenantctl" \
		"$(FISH_COMPLETIONS)/tenantctl.fish" "$(MANDIR)/tenantctl.1"

# The static build lands in the usual release directory; `--show-bin-path` with the same flags prints it.
static:
	$(SWIFT) build $(STATIC_FLAGS)
	@echo "built $$($(SWIFT) build $(STATIC_FLAGS) --show-bin-path)/tenantctl"

clean:
	$(SWIFT) package clean
