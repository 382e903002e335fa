/*
 * rpc_server_process.c — starts the rpc-server program as a child whose standard
 * output is a pipe, reads the "UDP_PORT TCP_PORT" line it writes once it serves, and
 * stops it with SIGTERM (see rpc_server_process.h).
 */
#define _GNU_SOURCE
#include "rpc_server_process.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

bool rpc_server_start(struct rpc_server_process *server, const char *program,
		      const char *variant)
{
	int ready[2];
	if (pipe2(ready, O_CLOEXEC) != 0) {
		perror("rpc server: pipe");
		return false;
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("rpc server: fork");
		return false;
	}
	if (pid == 0) {
		dup2(ready[1], STDOUT_FILENO);
		execl(program, program, variant, (char *)NULL);
		fprintf(stderr, "rpc server: cannot run %s: %s\n", program, strerror(errno));
		_exit(127);
	}
	close(ready[1]);
	FILE *announcement = fdopen(ready[0], "r");
	unsigned udp_port = 0, tcp_port = 0;
	bool serving = announcement != NULL &&
		       fscanf(announcement, "%u %u", &udp_port, &tcp_port) == 2;
	if (announcement != NULL)
		fclose(announcement);
	else
		close(ready[0]);
	server->pid = pid;
	server->udp_port = (unsigned short)udp_port;
	server->tcp_port = (unsigned short)tcp_port;
	if (!serving) {
		fprintf(stderr, "rpc server: %s %s did not start\n", program, variant);
		rpc_server_stop(server);
	}
	return serving;
}

bool rpc_server_stop(struct rpc_server_process *server)
{
	int status = 0;
	pid_t exited = waitpid(server->pid, &status, WNOHANG);
	if (exited == 0) {
		kill(server->pid, SIGTERM);
		waitpid(server->pid, &status, 0);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			return true;
		fprintf(stderr, "rpc server (pid %d) did not stop cleanly (status %#x)\n",
			(int)server->pid, status);
		return false;
	}
	if (exited < 0)
		perror("rpc server: waitpid");
	else
		fprintf(stderr, "rpc server (pid %d) had stopped on its own (status %#x)\n",
			(int)server->pid, status);
	return false;
}
