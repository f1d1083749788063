/* Hostile vendor-library behaviour for the mock libcuda.so.1 / libnvidia-ml.so.1
   (tests/mocks_cuda, tests/mocks_nvml), chosen by TFGPU_MOCK_HOSTILE; the tests check that
   tfgpu's child-process deadline holds and that the child's whole tree is gone after it.
     close_fds_block      close stdin/stdout/stderr, block every signal it can, block forever
     setsid_grandchild    fork a grandchild that calls setsid(), ignores SIGTERM/SIGHUP and
                          sleeps holding the pipes; the library itself then answers normally
     setsid_grandchild_block  the same, and the library blocks too
     sigstop              stop itself (SIGSTOP) in init
     exit_in_init         exit(0) inside the init call, printing nothing
     exit_in_constructor  exit(0) while being loaded (an ELF constructor)
   TFGPU_MOCK_PIDFILE: where the library writes the grandchild's pid (decimal). */
#ifndef TFGPU_MOCK_HOSTILE_H
#define TFGPU_MOCK_HOSTILE_H

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int mock_hostile_is(const char* m) {
  const char* v = getenv("TFGPU_MOCK_HOSTILE");
  return v && strcmp(v, m) == 0;
}

static void mock_hostile_block_forever(void) {
  sigset_t all;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, NULL);
  signal(SIGTERM, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  signal(SIGINT, SIG_IGN);
  for (;;) sleep(1000);
}

static void mock_hostile_grandchild(void) {
  pid_t p = fork();
  if (p == 0) {
    setsid();
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    for (;;) sleep(1000);
  }
  /* Written here, before the library returns: the test must know the pid even when the
     grandchild is killed before it has run at all. */
  const char* file = getenv("TFGPU_MOCK_PIDFILE");
  if (p > 0 && file && *file) {
    FILE* f = fopen(file, "w");
    if (f) {
      fprintf(f, "%d\n", (int)p);
      fclose(f);
    }
  }
}

/* Called at the top of every init entry point (nvmlInit*, cuInit, cuDriverGetVersion). */
static void mock_hostile_init(void) {
  if (mock_hostile_is("close_fds_block")) {
    close(0);
    close(1);
    close(2);
    mock_hostile_block_forever();
  }
  if (mock_hostile_is("setsid_grandchild")) mock_hostile_grandchild();
  if (mock_hostile_is("setsid_grandchild_block")) {
    mock_hostile_grandchild();
    mock_hostile_block_forever();
  }
  if (mock_hostile_is("sigstop")) raise(SIGSTOP);
  if (mock_hostile_is("exit_in_init")) exit(0);
}

__attribute__((constructor)) static void mock_hostile_constructor(void) {
  if (mock_hostile_is("exit_in_constructor")) exit(0);
}

#endif
