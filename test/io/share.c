/*
 * share.c — NO_FP_SHARE under the shim: every way an unmodified program can
 * share a file offset with someone else (fork, _Fork, vfork + exec, clone,
 * dup, dup2, dup3, F_DUPFD, SCM_RIGHTS, posix_spawn, system, popen, and each
 * exec function) must first give the offset back to the kernel, so that the
 * other side continues exactly where this one stopped and this one continues
 * after the other. The file holds its own offsets (every 8-byte word is its
 * position), so each 8-byte read says where it was read.
 *
 * Run with LD_PRELOAD=librespec-io-preload.so. With "--read-fd N" it is the
 * exec'd reader: reads 8 bytes from descriptor N with a raw system call and
 * writes them to standard output.
 */
#include "iotest.h"

#include <sched.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>

extern char **environ;

static const char *self_path;
static const char *data_path = "share.dat";

static uint64_t read_word(int fd)
{
	uint64_t word = ~0ull;
	CHECK(read(fd, &word, 8) == 8, "read from %d", fd);
	return word;
}

static void expect_at(int fd, uint64_t offset, const char *what)
{
	uint64_t word = read_word(fd);
	CHECK(word == offset, "%s: read offset %llu, expected %llu", what, (unsigned long long)word,
	      (unsigned long long)offset);
}

/* A descriptor specialized at offset 8. */
static int open_specialized(void)
{
	int fd = open(data_path, O_RDONLY);
	CHECK(fd >= 0, "open");
	expect_at(fd, 0, "first read");
	CHECK(shim_info(fd).specialized, "not specialized: %s", shim_info(fd).why_generic);
	return fd;
}

static void expect_shared(int fd, const char *what)
{
	struct respec_io_info info = shim_info(fd);
	CHECK(!info.specialized, "%s: still specialized", what);
}

static void wait_ok(pid_t pid, const char *what)
{
	int status;
	CHECK(waitpid(pid, &status, 0) == pid, "%s: waitpid", what);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: child status %d", what, status);
}

/* Reads the 8 bytes an exec'd reader wrote to a pipe. */
static uint64_t word_from_pipe(int fd)
{
	uint64_t word = ~0ull;
	size_t got = 0;
	while (got < 8) {
		ssize_t n = read(fd, (char *)&word + got, 8 - got);
		CHECK(n > 0, "reader output");
		got += (size_t)n;
	}
	return word;
}

static void test_fork(void)
{
	int fd = open_specialized();
	pid_t pid = fork();
	if (pid == 0) {
		expect_at(fd, 8, "fork child");
		_exit(0);
	}
	wait_ok(pid, "fork");
	expect_shared(fd, "fork");
	expect_at(fd, 16, "fork parent after the child");
	close(fd);

	fd = open_specialized();
	pid = _Fork();
	if (pid == 0) {
		expect_at(fd, 8, "_Fork child");
		_exit(0);
	}
	wait_ok(pid, "_Fork");
	expect_at(fd, 16, "_Fork parent");
	close(fd);
}

static int clone_child(void *arg)
{
	int fd = *(int *)arg;
	return read_word(fd) == 8 ? 0 : 1;
}

static void test_clone(void)
{
	int fd = open_specialized();
	size_t stack_size = 256 * 1024;
	char *stack = malloc(stack_size);
	pid_t pid = clone(clone_child, stack + stack_size, SIGCHLD, &fd);
	CHECK(pid > 0, "clone");
	wait_ok(pid, "clone");
	expect_at(fd, 16, "clone parent");
	free(stack);
	close(fd);
}

static void test_dups(void)
{
	int fd = open_specialized();
	int d = dup(fd);
	expect_shared(fd, "dup");
	expect_at(d, 8, "dup copy");
	expect_at(fd, 16, "dup original");
	close(d);
	close(fd);

	fd = open_specialized();
	int target = open_specialized(); /* dup2 replaces a specialized number */
	CHECK(dup2(fd, target) == target, "dup2");
	expect_at(target, 8, "dup2 copy");
	expect_at(fd, 16, "dup2 original");
	CHECK(dup3(fd, target, O_CLOEXEC) == target, "dup3");
	expect_at(target, 24, "dup3 copy");
	close(target);
	close(fd);

	fd = open_specialized();
	d = fcntl(fd, F_DUPFD, 50);
	CHECK(d >= 50, "F_DUPFD");
	expect_at(d, 8, "F_DUPFD copy");
	int e = fcntl(fd, F_DUPFD_CLOEXEC, 60);
	expect_at(e, 16, "F_DUPFD_CLOEXEC copy");
	expect_at(fd, 24, "F_DUPFD original");
	close(d);
	close(e);
	close(fd);
}

static void test_scm_rights(void)
{
	int sv[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "socketpair");
	pid_t pid = fork(); /* before the file is open: nothing shared yet */
	if (pid == 0) {
		close(sv[0]);
		char byte;
		char control[CMSG_SPACE(sizeof(int))];
		struct iovec iov = {&byte, 1};
		struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
				     .msg_controllen = sizeof control};
		CHECK(recvmsg(sv[1], &msg, 0) == 1, "recvmsg");
		int got;
		memcpy(&got, CMSG_DATA(CMSG_FIRSTHDR(&msg)), sizeof got);
		uint64_t word;
		CHECK(raw_read(got, &word, 8) == 8 && word == 8, "received descriptor at %llu",
		      (unsigned long long)word);
		CHECK(write(sv[1], "k", 1) == 1, "ack");
		_exit(0);
	}
	close(sv[1]);
	int fd = open_specialized();
	char control[CMSG_SPACE(sizeof(int))];
	memset(control, 0, sizeof control);
	struct iovec iov = {"x", 1};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
			     .msg_controllen = sizeof control};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof fd);
	CHECK(sendmsg(sv[0], &msg, 0) == 1, "sendmsg");
	expect_shared(fd, "SCM_RIGHTS");
	char ack;
	CHECK(read(sv[0], &ack, 1) == 1, "ack");
	wait_ok(pid, "SCM_RIGHTS");
	expect_at(fd, 16, "after the receiver");
	close(fd);
	close(sv[0]);
}

/* posix_spawn of this program as a reader of the inherited descriptor. */
static void test_posix_spawn(void)
{
	int fd = open_specialized();
	int out[2];
	CHECK(pipe(out) == 0, "pipe");
	posix_spawn_file_actions_t actions;
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_adddup2(&actions, out[1], 1);
	char fd_text[16];
	snprintf(fd_text, sizeof fd_text, "%d", fd);
	char *argv[] = {(char *)self_path, "--read-fd", fd_text, NULL};
	pid_t pid;
	CHECK(posix_spawn(&pid, self_path, &actions, NULL, argv, environ) == 0, "posix_spawn");
	close(out[1]);
	CHECK(word_from_pipe(out[0]) == 8, "spawned reader");
	wait_ok(pid, "posix_spawn");
	expect_at(fd, 16, "after posix_spawn");
	close(out[0]);
	close(fd);
	posix_spawn_file_actions_destroy(&actions);

	fd = open_specialized();
	CHECK(pipe(out) == 0, "pipe");
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_adddup2(&actions, out[1], 1);
	snprintf(fd_text, sizeof fd_text, "%d", fd);
	CHECK(posix_spawnp(&pid, self_path, &actions, NULL, argv, environ) == 0, "posix_spawnp");
	close(out[1]);
	CHECK(word_from_pipe(out[0]) == 8, "spawnp reader");
	wait_ok(pid, "posix_spawnp");
	expect_at(fd, 16, "after posix_spawnp");
	close(out[0]);
	close(fd);
	posix_spawn_file_actions_destroy(&actions);
}

/* vfork + each exec function. The children are made with a raw clone system
 * call for all but vfork, so that the exec interposer — not the fork guard —
 * is what hands the child's offset to the exec'd reader. */
enum exec_kind { EXECV, EXECVP, EXECVE, EXECVPE, EXECL, EXECLP, EXECLE, FEXECVE, EXECVEAT };

static void exec_reader(enum exec_kind kind, int fd)
{
	char fd_text[16];
	snprintf(fd_text, sizeof fd_text, "%d", fd);
	char *argv[] = {(char *)self_path, "--read-fd", fd_text, NULL};
	switch (kind) {
	case EXECV: execv(self_path, argv); break;
	case EXECVP: execvp(self_path, argv); break;
	case EXECVE: execve(self_path, argv, environ); break;
	case EXECVPE: execvpe(self_path, argv, environ); break;
	case EXECL: execl(self_path, self_path, "--read-fd", fd_text, (char *)NULL); break;
	case EXECLP: execlp(self_path, self_path, "--read-fd", fd_text, (char *)NULL); break;
	case EXECLE: execle(self_path, self_path, "--read-fd", fd_text, (char *)NULL, environ); break;
	case FEXECVE: {
		int exe = (int)raw_open(self_path, O_RDONLY | O_CLOEXEC);
		fexecve(exe, argv, environ);
		break;
	}
	case EXECVEAT: execveat(AT_FDCWD, self_path, argv, environ, 0); break;
	}
	_exit(127);
}

static void test_execs(void)
{
	static const char *names[] = {"execv", "execvp", "execve", "execvpe", "execl",
				      "execlp", "execle", "fexecve", "execveat"};
	for (int kind = EXECV; kind <= EXECVEAT; kind++) {
		int fd = open_specialized();
		int out[2];
		CHECK(pipe(out) == 0, "pipe");
		pid_t pid = (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
		if (pid == 0) {
			dup2(out[1], 1);
			exec_reader((enum exec_kind)kind, fd);
		}
		close(out[1]);
		uint64_t word = word_from_pipe(out[0]);
		CHECK(word == 8, "%s: the exec'd reader read offset %llu", names[kind],
		      (unsigned long long)word);
		wait_ok(pid, names[kind]);
		close(out[0]);
		close(fd);
	}

	int fd = open_specialized();
	int out[2];
	CHECK(pipe(out) == 0, "pipe");
	pid_t pid = vfork();
	if (pid == 0) {
		dup2(out[1], 1);
		exec_reader(EXECV, fd);
	}
	close(out[1]);
	CHECK(word_from_pipe(out[0]) == 8, "vfork reader");
	wait_ok(pid, "vfork");
	expect_at(fd, 16, "after vfork");
	close(out[0]);
	close(fd);
}

static void test_system_popen(void)
{
	int fd = open_specialized();
	char command[256];
	snprintf(command, sizeof command, "%s --read-fd %d > share-system.out", self_path, fd);
	CHECK(system(command) == 0, "system");
	int out = (int)raw_open("share-system.out", O_RDONLY);
	CHECK(word_from_pipe(out) == 8, "system reader");
	raw_close(out);
	unlink("share-system.out");
	expect_at(fd, 16, "after system");
	close(fd);

	fd = open_specialized();
	snprintf(command, sizeof command, "%s --read-fd %d", self_path, fd);
	FILE *p = popen(command, "r");
	CHECK(p != NULL, "popen");
	uint64_t word;
	CHECK(fread(&word, 8, 1, p) == 1 && word == 8, "popen reader");
	CHECK(pclose(p) == 0, "pclose");
	expect_at(fd, 16, "after popen");
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--read-fd") == 0) {
		uint64_t word;
		if (raw_read(atoi(argv[2]), &word, 8) != 8)
			return 1;
		return syscall(SYS_write, 1, &word, 8) == 8 ? 0 : 1;
	}
	self_path = realpath("/proc/self/exe", NULL);
	free(make_file(data_path, 1 << 20, 0));
	test_fork();
	test_clone();
	test_dups();
	test_scm_rights();
	test_posix_spawn();
	test_execs();
	test_system_popen();
	unlink(data_path);
	printf("PASS\n");
	return 0;
}
