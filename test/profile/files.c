// The I/O case study's predicate, found by watching an unmodified program's
// system calls (LD_PRELOAD the files observer): a file whose offset nothing
// shares while it is open. Five files, read one byte at a time: one privately
// and in sequence, one with a seek elsewhere, and three whose offset is shared
// (a dup, a fork, a second reading thread), then two around a system(): the
// child inherits one, the other is close-on-exec. Only private files are
// candidates, the largest ahead: the seeking file is a twentieth of the private
// one, so the order holds even when a read(2) on a shared machine costs twice
// another's (the small close-on-exec one scores under a hundredth of the first:
// the report leaves it out).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 -pthread %s -o %t/program
// RUN: head -c 40000 /dev/zero > %t/private.dat
// RUN: head -c 2000 /dev/zero > %t/seeks.dat
// RUN: head -c 30000 /dev/zero > %t/dup.dat
// RUN: head -c 30000 /dev/zero > %t/fork.dat
// RUN: head -c 30000 /dev/zero > %t/threads.dat
// RUN: head -c 100 /dev/zero > %t/stale.dat
// RUN: head -c 100 /dev/zero > %t/spawned.dat
// RUN: head -c 100 /dev/zero > %t/cloexec.dat
// No cache of librespec-io's measured costs: the report uses its built-in ones.
// RUN: sh -c 'cd %t && RESPEC_IO_CACHE_DIR=%t/no-cache RESPEC_PROFILE_OUT=%t/profile.txt LD_PRELOAD=$(%respec profile --preload) ./program'
// RUN: %respec profile report %t/profile.txt.files | FileCheck %s
// RUN: FileCheck %s --check-prefix=RAW < %t/profile.txt.files
//
// CHECK: 0 value sites in 0 functions, 8 files read; 2 candidate predicates
// CHECK: 1. {{.*}}private.dat (read by program) is read privately and sequentially
// CHECK-NEXT: file, 1 open(s) of up to 40000 bytes: 40001 reads of 40000 bytes (0 per read), 0 preads
// CHECK-NEXT: benefit {{[0-9]+}} ns (the run's {{[1-9][0-9]*}} ns per read(2), less librespec-io's read, mapping and copy), cost 11500 ns (setting up each open); score {{[0-9]+}} ns (librespec-io's built-in costs)
// CHECK-NEXT: predicted speedup {{[0-9.]+}}x of program: {{[0-9.]+}} ms of CPU, {{[0-9.]+}} ms of it in these reads, {{[0-9.]+}} ms with librespec-io
// CHECK-NEXT: specialize with librespec-io: LD_PRELOAD=librespec-io-preload.so program
// CHECK: 2. {{.*}}seeks.dat (read by program) is read privately (1 seeks elsewhere)
// CHECK-NOT: dup.dat
// CHECK-NOT: fork.dat
// CHECK-NOT: threads.dat
// CHECK-NOT: spawned.dat
//
// The records: opens:bytes:preads:seeks elsewhere:shares:foreign reads:size:ns
// in read(2), then the reads.
// RAW: process program {{.*}}
// RAW-DAG: file program {{.*}}/private.dat 1:40000:0:0:0:0:40000:{{[0-9]+}} 40001
// RAW-DAG: file program {{.*}}/dup.dat 1:30000:0:0:1:0:30000:{{[0-9]+}} 30001
// RAW-DAG: file program {{.*}}/fork.dat 1:30000:0:0:1:0:30000:{{[0-9]+}} 30001
// RAW-DAG: file program {{.*}}/threads.dat 1:30000:0:0:0:15000:30000:{{[0-9]+}} 30001
// A descriptor handed to stdio (fdopen) is not followed, and a pipe that reuses
// its number after fclose is not taken for the file:
// RAW-DAG: file program {{.*}}/stale.dat 1:0:0:0:0:0:100:0 0
// system() starts a child that inherits a descriptor unless it is close-on-exec:
// RAW-DAG: file program {{.*}}/spawned.dat 1:100:0:0:1:0:100:{{[0-9]+}} 101
// RAW-DAG: file program {{.*}}/cloexec.dat 1:100:0:0:0:0:100:{{[0-9]+}} 101
//
// A program built with the value profiling and run under the observer keeps
// both profiles: the value profile under the name, the files' beside it.
// RUN: sh -c '%clang -O2 $(%respec profile --cflags) $(%respec profile --ldflags) %s -o %t/instrumented'
// RUN: sh -c 'cd %t && RESPEC_PROFILE_OUT=%t/both.txt LD_PRELOAD=$(%respec profile --preload) ./instrumented'
// RUN: FileCheck %s --check-prefix=BOTH-VALUES < %t/both.txt
// RUN: FileCheck %s --check-prefix=BOTH-FILES < %t/both.txt.files
// BOTH-VALUES: call main
// BOTH-FILES: file instrumented {{.*}}/private.dat
//
// A real program, unmodified: Debian's wc, counting the lines of a 16 MiB file
// in 16 KiB reads. Their time is mostly the copy, which librespec-io would still
// do, plus mapping the file: no saving, no candidate (the bench measures wc
// under librespec-io: no faster).
// RUN: head -c 16777216 /dev/zero > %t/large.dat
// RUN: sh -c 'RESPEC_IO_CACHE_DIR=%t/no-cache RESPEC_PROFILE_OUT=%t/wc.profile LD_PRELOAD=$(%respec profile --preload) wc -l %t/large.dat %t/private.dat'
// RUN: %respec profile report %t/wc.profile.files | FileCheck %s --check-prefix=WC
// RUN: FileCheck %s --check-prefix=WC-RAW < %t/wc.profile.files
// WC: 0 value sites in 0 functions, 2 files read; 0 candidate predicates
// WC-RAW: file wc {{.*}}/large.dat 1:16777216:0:0:0:0:16777216:{{[0-9]+}} {{[0-9]+}}
//
// Once librespec-io has measured its costs on this machine (its first decision,
// here under its shim), the observer records them and the report uses them.
// RUN: %if io %{ sh -c 'RESPEC_IO_CACHE_DIR=%t/cache LD_PRELOAD=%io-preload wc -l %t/large.dat' %}
// RUN: %if io %{ sh -c 'cd %t && RESPEC_IO_CACHE_DIR=%t/cache RESPEC_PROFILE_OUT=%t/measured.profile LD_PRELOAD=$(%respec profile --preload) ./program' %}
// RUN: %if io %{ %respec profile report %t/measured.profile.files | FileCheck %s --check-prefix=MEASURED %}
// MEASURED: score {{[0-9]+}} ns (librespec-io's costs measured where the program ran, {{.*}}/cache/io-costs-{{[0-9a-f]+}})
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static long sum;

static void read_all(int fd) {
  char c;
  while (read(fd, &c, 1) == 1)
    sum += c;
}

static void *read_half(void *fd) {
  char c;
  for (int i = 0; i < 15000 && read((int)(long)fd, &c, 1) == 1; i++)
    sum += c;
  return NULL;
}

static int open_or_die(const char *path) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) {
    perror(path);
    exit(1);
  }
  return fd;
}

int main(void) {
  int fd = open_or_die("private.dat");
  read_all(fd);
  close(fd);

  fd = open_or_die("seeks.dat");
  read_all(fd);
  lseek(fd, 0, SEEK_SET);
  close(fd);

  fd = open_or_die("dup.dat");
  int copy = dup(fd);
  read_all(fd);
  close(copy);
  close(fd);

  fd = open_or_die("fork.dat");
  pid_t child = fork();
  if (child == 0)
    _exit(0);
  waitpid(child, NULL, 0);
  read_all(fd);
  close(fd);

  fd = open_or_die("threads.dat");
  pthread_t thread;
  read_half((void *)(long)fd);
  pthread_create(&thread, NULL, read_half, (void *)(long)fd);
  pthread_join(thread, NULL);
  read_all(fd);
  close(fd);

  FILE *stream = fdopen(open_or_die("stale.dat"), "r");
  sum += fgetc(stream);
  fclose(stream);
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0 || write(pipe_fds[1], "ab", 2) != 2)
    return 1;
  close(pipe_fds[1]);
  read_all(pipe_fds[0]);
  close(pipe_fds[0]);

  int inherited = open_or_die("spawned.dat");
  int private_to_us = open("cloexec.dat", O_RDONLY | O_CLOEXEC);
  if (private_to_us < 0 || system("true") != 0)
    return 1;
  read_all(inherited);
  read_all(private_to_us);
  close(inherited);
  close(private_to_us);
  printf("%ld\n", sum);
  return 0;
}
