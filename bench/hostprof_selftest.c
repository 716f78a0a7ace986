/* What bench/test_bench_tools.py profiles with hostprof: two threads of
 * known CPU time, "hot" (HOT_MS in hostprof_selftest_hot ()) and "cold"
 * (COLD_MS in hostprof_selftest_cold ()). Exported (-rdynamic), so that
 * dladdr () names them. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define HOT_MS 600
#define COLD_MS 200

static double
thread_cpu_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static volatile unsigned long sink;

/* inlined, so that the samples' innermost frame is the exported caller */
static inline __attribute__((always_inline)) void
spin_for (double ms)
{
  double end = thread_cpu_ms () + ms;
  unsigned long x = 1;
  while (thread_cpu_ms () < end)
    for (int i = 0; i < 10000; i++)
      x = x * 6364136223846793005ul + 1442695040888963407ul;
  sink = x;
}

void hostprof_selftest_hot (void);
void hostprof_selftest_cold (void);

__attribute__((noinline)) void
hostprof_selftest_hot (void)
{
  spin_for (HOT_MS);
}

__attribute__((noinline)) void
hostprof_selftest_cold (void)
{
  spin_for (COLD_MS);
}

static void *
run (void *hot)
{
  pthread_setname_np (pthread_self (), hot ? "hot" : "cold");
  if (hot)
    hostprof_selftest_hot ();
  else
    hostprof_selftest_cold ();
  return NULL;
}

int
main (void)
{
  pthread_t threads[2];
  for (int i = 0; i < 2; i++)
    if (pthread_create (&threads[i], NULL, run, i ? NULL : (void *) 1))
      return 1;
  for (int i = 0; i < 2; i++)
    pthread_join (threads[i], NULL);
  printf ("hot %d ms, cold %d ms\n", HOT_MS, COLD_MS);
  return 0;
}
