/* The object that calls dlopen in the differential test (stands for TensorFlow's
   libtensorflow_framework.so.2): linked per variant with its own DT_RPATH / DT_RUNPATH.
   Build: gcc -shared -fPIC caller.c -o libldmcaller.so [-Wl,-rpath,...] */
#include <dlfcn.h>

void* caller_dlopen(const char* name) { return dlopen(name, RTLD_NOW); }
