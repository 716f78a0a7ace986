#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
static char *slurp(const char *p){FILE*f=fopen(p,"rb");fseek(f,0,2);long n=ftell(f);rewind(f);char*s=malloc(n+1);if(fread(s,1,n,f)!=(size_t)n)exit(1);s[n]=0;fclose(f);return s;}
int main(int argc,char**argv){cl_platform_id p[4];cl_uint np;cl_device_id d=0;clGetPlatformIDs(4,p,&np);
for(cl_uint i=0;i<np&&!d;i++) if(clGetDeviceIDs(p[i],getenv("ANYDEV")?CL_DEVICE_TYPE_ALL:CL_DEVICE_TYPE_GPU,1,&d,0)!=CL_SUCCESS) d=0;
if(!d){puts("no device");return 1;}
cl_context c=clCreateContext(0,1,&d,0,0,0);const char*s[2]={slurp(argv[1]),slurp(argv[2])};cl_program pr=clCreateProgramWithSource(c,2,s,0,0);
cl_int e=clBuildProgram(pr,1,&d,argv[3],0,0);static char log[1000000];clGetProgramBuildInfo(pr,d,CL_PROGRAM_BUILD_LOG,sizeof log,log,0);printf("status %d\n%s\n",e,log);return 0;}
