#!/bin/sh
# deps.sh - make sure the build tools are present; install them with apt-get when run as root,
# otherwise print the exact command to run and fail.
# Usage: scripts/deps.sh build | test | oracle | memcheck | fuzz | gui | browser
# (test includes xmllint, which checks that the rulebook's SVG pictures are well-formed XML;
# build includes the HTTP and JSON libraries of `varia serve`; browser is Chromium and Node.js
# with npm, which fetches puppeteer-core for the browser test)
set -e
need=""
again=""
check_cmd() { command -v "$1" >/dev/null 2>&1 || need="$need $2"; }
check_hdr() { [ -f "$1" ] || need="$need $2"; }

case "${1:-build}" in
build)
    check_cmd flex flex
    check_cmd bison bison
    check_cmd cc gcc
    check_hdr /usr/include/microhttpd.h libmicrohttpd-dev
    check_hdr /usr/include/jansson.h libjansson-dev
    ;;
test)
    check_cmd flex flex
    check_cmd bison bison
    check_cmd cc gcc
    check_hdr /usr/include/microhttpd.h libmicrohttpd-dev
    check_hdr /usr/include/jansson.h libjansson-dev
    check_hdr /usr/include/cmocka.h libcmocka-dev
    check_cmd xmllint libxml2-utils
    ;;
oracle)
    check_cmd python3 python3
    [ -x /usr/games/fairy-stockfish ] || command -v fairy-stockfish >/dev/null 2>&1 || need="$need fairy-stockfish"
    ;;
memcheck)
    check_cmd valgrind valgrind
    ;;
gui)
    # XBoard under a virtual X server (xvfb-run needs xauth)
    [ -x /usr/games/xboard ] || command -v xboard >/dev/null 2>&1 || need="$need xboard"
    check_cmd xvfb-run xvfb
    check_cmd xauth xauth
    ;;
browser)
    check_cmd chromium chromium
    check_cmd node nodejs
    check_cmd npm npm
    ;;
fuzz)
    # clang with libFuzzer and the sanitizer runtimes (Debian 12: clang 14 and
    # libclang-rt-14-dev). The runtime package is named after clang's version, so clang comes
    # first; once it is installed this check runs again.
    if command -v clang >/dev/null 2>&1; then
        rt=$(clang -print-resource-dir)/lib/linux/libclang_rt.fuzzer-$(uname -m).a
        v=$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n 1)
        [ -f "$rt" ] || need="$need libclang-rt-$v-dev"
    else
        need="$need clang"
        again=1
    fi
    ;;
esac

[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing:$need" >&2
    export DEBIAN_FRONTEND=noninteractive
    # A fresh machine has no package lists yet; a failed update is not fatal if the lists exist.
    apt-get update -qq >/dev/null 2>&1 || true
    apt-get install -y -qq $need >/dev/null || { echo "apt-get install$need failed" >&2; exit 1; }
    [ -z "$again" ] || exec "$0" "$@"
    exit 0
fi
echo "missing:$need" >&2
echo "run: sudo apt-get install -y$need" >&2
exit 1
