#!/bin/bash
# Download each TF wheel (no deps) and extract TF's own shared objects' framework library.
mkdir -p "${WHEELS:-wheels}" && cd "${WHEELS:-wheels}"
for v in "$@"; do
  case $v in 2.[4-9].*|2.1[01].*) py=3.8;; 2.[0-3].*|1.*) py=3.7;; *) py=3.11;; esac
  pkg=tensorflow; case $v in 1.*|2.0.*) pkg=tensorflow-gpu;; esac
  [ -d x$v ] && continue
  pip download -q --no-deps --only-binary=:all: --python-version $py --platform manylinux2010_x86_64 --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux1_x86_64 $pkg==$v -d dl$v >/dev/null 2>dl$v.err || { echo "$v download failed"; continue; }
  mkdir -p x$v && unzip -o -q dl$v/*.whl 'tensorflow*/libtensorflow_framework.so*' 'tensorflow*/python/_pywrap_tensorflow_internal.so' -d x$v 2>/dev/null
  unzip -l dl$v/*.whl > x$v/listing.txt
  echo "$v done $(ls dl$v)"
done
