/* The real loader's answer, for tests/loader_ld_so_differential_posix_test.cc.
   Usage: ld_probe [--chdir DIR] [--caller LIB] NAME...
   Optionally dlopens LIB (by path, RTLD_NOW | RTLD_GLOBAL) and then asks its
   caller_dlopen() to dlopen each NAME, so the search runs on behalf of LIB (its
   DT_RPATH / DT_RUNPATH / $ORIGIN), as TensorFlow's own libraries do. Without
   --caller the main program calls dlopen. After each step it prints the whole link
   map (dl_iterate_phdr order = load order):
     step <i> ok <l_name of the handle>   or   step <i> fail <dlerror()>
     map <i> <dlpi_name>                  one per loaded object
   Build: gcc -O1 ld_probe.c -o ld_probe (no -ldl needed with glibc >= 2.34). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int step;

static int print_map(struct dl_phdr_info* info, size_t size, void* data) {
  (void)size;
  (void)data;
  printf("map %d %s\n", step, info->dlpi_name ? info->dlpi_name : "");
  return 0;
}

static void report(void* handle) {
  if (!handle) {
    const char* e = dlerror();
    printf("step %d fail %s\n", step, e ? e : "");
  } else {
    struct link_map* lm = NULL;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) == 0 && lm)
      printf("step %d ok %s\n", step, lm->l_name);
    else
      printf("step %d ok ?\n", step);
  }
  dl_iterate_phdr(print_map, NULL);
  ++step;
}

int main(int argc, char** argv) {
  void* (*caller_dlopen)(const char*) = NULL;
  int i = 1;
  dl_iterate_phdr(print_map, NULL); /* step 0's map: what was there before */
  ++step;
  if (i + 1 < argc && strcmp(argv[i], "--chdir") == 0) {
    if (chdir(argv[i + 1]) != 0) {
      perror("chdir");
      return 2;
    }
    i += 2;
  }
  if (i + 1 < argc && strcmp(argv[i], "--caller") == 0) {
    void* c = dlopen(argv[i + 1], RTLD_NOW | RTLD_GLOBAL);
    report(c);
    if (!c) return 0;
    caller_dlopen = (void* (*)(const char*))dlsym(c, "caller_dlopen");
    if (!caller_dlopen) {
      printf("no caller_dlopen in %s\n", argv[i + 1]);
      return 2;
    }
    i += 2;
  }
  for (; i < argc; ++i) report(caller_dlopen ? caller_dlopen(argv[i]) : dlopen(argv[i], RTLD_NOW));
  return 0;
}
