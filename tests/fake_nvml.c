/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A stand-in for libnvidia-ml.so.1 with the calls the NVML load source
 * makes, driven by environment variables so tests script the GPU:
 *   FAKE_NVML_UTIL=N         device utilisation, percent
 *   FAKE_NVML_PROCS=P:S,...  per-process SM utilisation; P "self" is the
 *                            calling process; "unsupported" makes
 *                            nvmlDeviceGetProcessUtilization fail. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct
{
  unsigned int gpu, memory;
} nvmlUtilization_t;
typedef struct
{
  unsigned int pid;
  unsigned long long timeStamp;
  unsigned int smUtil, memUtil, encUtil, decUtil;
} nvmlProcessUtilizationSample_t;

int nvmlInit_v2 (void);
int nvmlShutdown (void);
int nvmlDeviceGetHandleByIndex_v2 (unsigned int index, void **device);
int nvmlDeviceGetUtilizationRates (void *device, nvmlUtilization_t * u);
int nvmlDeviceGetProcessUtilization (void *device,
    nvmlProcessUtilizationSample_t * samples, unsigned int *count,
    unsigned long long last_seen);

static unsigned long long stamp = 1000;

int
nvmlInit_v2 (void)
{
  return 0;
}

int
nvmlShutdown (void)
{
  return 0;
}

int
nvmlDeviceGetHandleByIndex_v2 (unsigned int index, void **device)
{
  static int dev;
  if (index != 0)
    return 2;                   /* NVML_ERROR_INVALID_ARGUMENT */
  *device = &dev;
  return 0;
}

int
nvmlDeviceGetUtilizationRates (void *device, nvmlUtilization_t * u)
{
  const char *env = getenv ("FAKE_NVML_UTIL");
  u->gpu = env ? (unsigned) atoi (env) : 0;
  u->memory = 0;
  return 0;
}

int
nvmlDeviceGetProcessUtilization (void *device,
    nvmlProcessUtilizationSample_t * samples, unsigned int *count,
    unsigned long long last_seen)
{
  const char *env = getenv ("FAKE_NVML_PROCS");
  char buf[256], *save = NULL;
  unsigned int n = 0;

  if (env && !strcmp (env, "unsupported"))
    return 13;                  /* NVML_ERROR_NOT_SUPPORTED */
  if (!env || !*env)
    return 6;                   /* NVML_ERROR_NOT_FOUND: no process ran */
  snprintf (buf, sizeof (buf), "%s", env);
  for (char *t = strtok_r (buf, ",", &save); t; t = strtok_r (NULL, ",",
          &save))
    n++;
  if (!samples || *count < n) {
    *count = n;
    return 7;                   /* NVML_ERROR_INSUFFICIENT_SIZE */
  }
  snprintf (buf, sizeof (buf), "%s", env);
  n = 0;
  stamp++;
  for (char *t = strtok_r (buf, ",", &save); t; t = strtok_r (NULL, ",",
          &save)) {
    char *colon = strchr (t, ':');
    if (!colon)
      continue;
    *colon = '\0';
    samples[n].pid = !strcmp (t, "self") ? (unsigned) getpid () :
        (unsigned) atoi (t);
    samples[n].timeStamp = stamp;
    samples[n].smUtil = (unsigned) atoi (colon + 1);
    n++;
  }
  *count = n;
  return 0;
}
