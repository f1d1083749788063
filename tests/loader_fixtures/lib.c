/* The body of every library variant in the differential test; what differs between
   variants is only the link: -soname, DT_NEEDED (via stubs), DT_RPATH / DT_RUNPATH.
   Build: gcc -c -fPIC lib.c, then gcc -shared -nostdlib lib.o ... per variant. */
int ldm_lib_marker(void) { return 42; }
