/* hostprof: LD_PRELOAD shim that samples where a process spends its CPU
 * time, thread by thread, with each sample's call stack. The GPU machine
 * has no perf and nothing can be installed there; this needs only libc.
 *
 *   HOSTPROF_OUT=stacks.%p.txt [HOSTPROF_US=100 | HOSTPROF_WALL_US=1000] \
 *     LD_PRELOAD=build/bench/libhostprof.so program ...
 *   /usr/bin/python3 bench/hostprof_report.py stacks.txt [--per N]
 *
 * Every HOSTPROF_US microseconds of the process's CPU time (ITIMER_PROF;
 * in practice every tick of the kernel that finds the process running,
 * 1 to 4 ms) the thread that used it records its name and its stack.
 * With HOSTPROF_WALL_US instead, a thread of its own signals every thread
 * at that wall-clock interval, running or waiting: where a thread waits
 * (a futex, a poll) shows as well as where it works. The signals cut
 * blocking calls short (SA_RESTART restarts most), so this mode disturbs
 * the program more.
 * At exit the stacks go to HOSTPROF_OUT ("%p" in it becomes the process
 * id; a process never sampled writes nothing), folded, one line each:
 * "thread;outer;...;inner count", where a frame is the symbol dladdr ()
 * finds, or "library+0xOFFSET" for functions a library does not export
 * (hostprof_report.py resolves those of files it can read with
 * addr2line). The first line says how much time one sample stands for:
 * the process's CPU time from start to exit over the samples, or the
 * wall-clock interval. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#define MAX_DEPTH 40
/* the handler's own frame and the kernel's signal trampoline */
#define SKIP_FRAMES 2

typedef struct
{
  char thread[16];
  int depth;
  void *pcs[MAX_DEPTH];
} Sample;

static Sample *samples;
static size_t max_samples;
static atomic_size_t n_samples;
static atomic_size_t n_dropped;
static long interval_us;
static const char *out_path;
static double cpu_s_at_start;
/* HOSTPROF_WALL_US: every thread sampled at that wall-clock interval */
static long wall_us;
static pthread_t wall_thread;
static atomic_int wall_stop;

static double
process_cpu_s (void)
{
  struct rusage ru;
  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec
      + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

static void
on_sigprof (int sig)
{
  (void) sig;
  size_t i = atomic_fetch_add (&n_samples, 1);
  if (i >= max_samples) {
    atomic_fetch_add (&n_dropped, 1);
    return;
  }
  Sample *s = &samples[i];
  prctl (PR_GET_NAME, s->thread, 0, 0, 0);
  s->depth = backtrace (s->pcs, MAX_DEPTH);
}

static void
frame_name (void *pc, int is_return_address, char *buf, size_t size)
{
  /* a return address points after its call, possibly into the next
   * function; the call itself is one byte earlier */
  uintptr_t at = (uintptr_t) pc - (is_return_address ? 1 : 0);
  Dl_info info;
  if (!dladdr ((void *) at, &info) || !info.dli_fname) {
    snprintf (buf, size, "?+0x%" PRIxPTR, at);
    return;
  }
  if (info.dli_sname) {
    snprintf (buf, size, "%s", info.dli_sname);
    return;
  }
  const char *base = strrchr (info.dli_fname, '/');
  snprintf (buf, size, "%s+0x%" PRIxPTR, base ? base + 1 : info.dli_fname,
      at - (uintptr_t) info.dli_fbase);
}

/* Wall-clock mode: signals every thread of the process (but itself) every
 * @wall_us, running or not, so a thread's samples show where it waits as
 * well as where it works. */
static void *
wall_sampler (void *data)
{
  (void) data;
  pid_t pid = getpid (), self = (pid_t) syscall (SYS_gettid);
  struct timespec next;

  prctl (PR_SET_NAME, "hostprof", 0, 0, 0);
  clock_gettime (CLOCK_MONOTONIC, &next);
  while (!atomic_load (&wall_stop)) {
    next.tv_nsec += wall_us * 1000;
    while (next.tv_nsec >= 1000000000) {
      next.tv_nsec -= 1000000000;
      next.tv_sec++;
    }
    clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
    DIR *tasks = opendir ("/proc/self/task");
    if (!tasks)
      continue;
    for (struct dirent * e; (e = readdir (tasks));) {
      pid_t tid = (pid_t) atol (e->d_name);
      if (tid > 0 && tid != self)
        syscall (SYS_tgkill, pid, tid, SIGPROF);
    }
    closedir (tasks);
  }
  return NULL;
}

static int
compare_strings (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static void
write_stacks (void)
{
  struct itimerval off = { 0 };
  setitimer (ITIMER_PROF, &off, NULL);
  if (wall_us) {
    atomic_store (&wall_stop, 1);
    pthread_join (wall_thread, NULL);
  }
  signal (SIGPROF, SIG_IGN);

  size_t n = atomic_load (&n_samples);
  if (n > max_samples)
    n = max_samples;
  /* helpers the program runs (a plugin scanner, timeout) inherit the
   * preload; a process that was never sampled leaves no file */
  if (n == 0)
    return;
  char path[4096];
  const char *pid_at = strstr (out_path, "%p");
  if (pid_at)
    snprintf (path, sizeof path, "%.*s%ld%s", (int) (pid_at - out_path),
        out_path, (long) getpid (), pid_at + 2);
  else
    snprintf (path, sizeof path, "%s", out_path);
  char **lines = calloc (n, sizeof *lines);
  FILE *out = lines ? fopen (path, "w") : NULL;
  if (!out) {
    fprintf (stderr, "hostprof: cannot write %s\n", path);
    free (lines);
    return;
  }
  for (size_t i = 0; i < n; i++) {
    const Sample *s = &samples[i];
    char line[16 + MAX_DEPTH * 128];
    size_t used = (size_t) snprintf (line, sizeof line, "%s",
        s->thread[0] ? s->thread : "?");
    for (int f = s->depth - 1; f >= SKIP_FRAMES && used < sizeof line; f--) {
      char name[128];
      frame_name (s->pcs[f], f > SKIP_FRAMES, name, sizeof name);
      used += (size_t) snprintf (line + used, sizeof line - used, ";%s",
          name);
    }
    /* a line's own length: a long run has hundreds of thousands */
    if (!(lines[i] = strdup (line))) {
      n = i;                    /* out of memory: write what there is */
      break;
    }
  }
  qsort (lines, n, sizeof *lines, compare_strings);
  /* the kernel checks CPU-time timers at its tick, so a sample stands for
   * the process's CPU time over the samples, not for HOSTPROF_US */
  double cpu_s = process_cpu_s () - cpu_s_at_start;
  size_t taken = n + atomic_load (&n_dropped);
  if (wall_us)
    fprintf (out, "# hostprof: %zu samples (%zu dropped), every thread "
        "every %ld us: one sample = %.1f us of wall time\n", n,
        atomic_load (&n_dropped), wall_us, (double) wall_us);
  else
    fprintf (out, "# hostprof: %zu samples (%zu dropped) over %.3f s of "
        "CPU time: one sample = %.1f us of CPU time (HOSTPROF_US=%ld)\n", n,
        atomic_load (&n_dropped), cpu_s, taken ? cpu_s * 1e6 / taken : 0.0,
        interval_us);
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && strcmp (lines[i], lines[j]) == 0)
      j++;
    fprintf (out, "%s %zu\n", lines[i], j - i);
    i = j;
  }
  fclose (out);
  for (size_t i = 0; i < n; i++)
    free (lines[i]);
  free (lines);
}

__attribute__((constructor))
static void
start (void)
{
  out_path = getenv ("HOSTPROF_OUT");
  if (!out_path)
    return;
  const char *us = getenv ("HOSTPROF_US");
  const char *wall = getenv ("HOSTPROF_WALL_US");
  const char *max = getenv ("HOSTPROF_MAX_SAMPLES");
  wall_us = wall ? atol (wall) : 0;
  if (wall_us < 0)
    wall_us = 0;
  if (wall_us > 0 && wall_us < 100)
    wall_us = 100;
  interval_us = us ? atol (us) : 100;
  if (interval_us < 10)
    interval_us = 10;
  max_samples = max ? (size_t) atol (max) : 500000;
  samples = calloc (max_samples, sizeof *samples);
  if (!samples) {
    fprintf (stderr, "hostprof: no memory for %zu samples\n", max_samples);
    return;
  }
  /* the first backtrace () loads the unwinder, which must not happen
   * inside the signal handler */
  void *warm[4];
  backtrace (warm, 4);

  struct sigaction sa = { 0 };
  sa.sa_handler = on_sigprof;
  sa.sa_flags = SA_RESTART;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGPROF, &sa, NULL);
  struct itimerval every = {
    .it_interval = { interval_us / 1000000, interval_us % 1000000 },
    .it_value = { interval_us / 1000000, interval_us % 1000000 },
  };
  cpu_s_at_start = process_cpu_s ();
  if (wall_us) {
    if (pthread_create (&wall_thread, NULL, wall_sampler, NULL) != 0) {
      fprintf (stderr, "hostprof: no sampling thread\n");
      return;
    }
  } else {
    setitimer (ITIMER_PROF, &every, NULL);
  }
  atexit (write_stacks);
}
