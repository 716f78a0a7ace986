/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* How long a thread sleeping on a condition variable takes to run after
 * another thread signals it: the cost PoCL's pthread device pays to bring
 * a sleeping worker into each launch. The signaller is pinned to CPU 0,
 * the waiter to CPU WAITER_CPU; between signals the signaller sleeps
 * IDLE_US so that the waiter's CPU goes idle, as between two frames.
 * A report, never a test (docs/PERFORMANCE.md, "Session 17").
 * Usage: wake_latency [WAITER_CPU [IDLE_US [ROUNDS]]] */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int generation, seen, stop;
static double woke_us;

static double
now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int
pin (int cpu)
{
  cpu_set_t set;
  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  return pthread_setaffinity_np (pthread_self (), sizeof (set), &set);
}

static void *
waiter (void *arg)
{
  if (pin (*(const int *) arg) != 0)
    fprintf (stderr, "cannot pin the waiter to CPU %d\n", *(const int *) arg);
  pthread_mutex_lock (&lock);
  while (!stop) {
    while (seen == generation && !stop)
      pthread_cond_wait (&cond, &lock);
    woke_us = now_us ();
    seen = generation;
    pthread_cond_broadcast (&cond);
  }
  pthread_mutex_unlock (&lock);
  return NULL;
}

static int
compare (const void *a, const void *b)
{
  const double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

int
main (int argc, char **argv)
{
  const int cpu = argc > 1 ? atoi (argv[1]) : 1;
  const int idle_us = argc > 2 ? atoi (argv[2]) : 100;
  const int rounds = argc > 3 ? atoi (argv[3]) : 2000;
  const long cpus = sysconf (_SC_NPROCESSORS_ONLN);
  double *latency;
  pthread_t thread;

  if (cpu < 0 || cpu >= cpus || idle_us < 0 || rounds < 10) {
    fprintf (stderr, "usage: %s [WAITER_CPU (0..%ld) [IDLE_US [ROUNDS >= 10]]]\n",
        argv[0], cpus - 1);
    return 2;
  }
  latency = malloc (rounds * sizeof (*latency));
  if (!latency || pin (0) != 0
      || pthread_create (&thread, NULL, waiter, (void *) &cpu) != 0) {
    fprintf (stderr, "cannot set up the two threads\n");
    return 1;
  }
  usleep (10000);
  for (int i = 0; i < rounds; i++) {
    double signalled;
    usleep (idle_us);
    pthread_mutex_lock (&lock);
    signalled = now_us ();
    generation++;
    pthread_cond_broadcast (&cond);
    while (seen != generation)
      pthread_cond_wait (&cond, &lock);
    latency[i] = woke_us - signalled;
    pthread_mutex_unlock (&lock);
  }
  pthread_mutex_lock (&lock);
  stop = 1;
  pthread_cond_broadcast (&cond);
  pthread_mutex_unlock (&lock);
  pthread_join (thread, NULL);

  qsort (latency, rounds, sizeof (*latency), compare);
  printf ("waiter on CPU %d, signaller on CPU 0, %d us idle between, %d rounds: "
      "wake-up median %.1f us, p10 %.1f, p90 %.1f, min %.1f\n", cpu, idle_us,
      rounds, latency[rounds / 2], latency[rounds / 10],
      latency[rounds * 9 / 10], latency[0]);
  free (latency);
  return 0;
}
