/*
 * rpc_server.c — the server program of the case study: the RPCBENCH procedures and
 * a main loop written as any Sun RPC server is — UDP and TCP transports, the
 * dispatch routine rpcgen generated (rpcbench_prog_1) registered on both, and svc_run's
 * loop until SIGTERM.
 * It binds to the loopback only and registers with no portmapper (protocol 0): the
 * test or benchmark that starts it learns its ports from ready_fd. It is compiled
 * into both stacks (rpc_stack.h).
 */
#include "rpc_stack.h"

#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

RPC_SERVER_DECLARE()

/* The dispatch routine rpcgen generated (rpcgen -m declares it nowhere). */
void rpcbench_prog_1(struct svc_req *request, SVCXPRT *transport);

int *rmin_1_svc(pair *arguments, struct svc_req *request)
{
	(void)request;
	static int minimum;
	minimum = arguments->int1 < arguments->int2 ? arguments->int1 : arguments->int2;
	return &minimum;
}

/* The echoes reply with the decoded argument itself, which the dispatch routine
 * frees after sending the reply. */
intarray *echo_ints_1_svc(intarray *arguments, struct svc_req *request)
{
	(void)request;
	return arguments;
}

record *echo_record_1_svc(record *arguments, struct svc_req *request)
{
	(void)request;
	return arguments;
}

static void cap_descriptor_limit(void)
{
	struct rlimit limit;
	if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur > FD_SETSIZE) {
		limit.rlim_cur = FD_SETSIZE;
		setrlimit(RLIMIT_NOFILE, &limit);
	}
}

/* A socket of the given type bound to an ephemeral port on 127.0.0.1, or -1. */
static int loopback_socket(int type)
{
	int sock = socket(AF_INET, type, 0);
	if (sock < 0)
		return -1;
	struct sockaddr_in address;
	memset(&address, 0, sizeof address);
	address.sin_family = AF_INET;
	address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(sock, (struct sockaddr *)&address, sizeof address) != 0) {
		close(sock);
		return -1;
	}
	return sock;
}

/* Set by SIGTERM (rpc_server_process's stop, or the parent's death). */
static volatile sig_atomic_t stop_requested;

static void request_stop(int signal_number)
{
	(void)signal_number;
	stop_requested = 1;
}

/*
 * svc_run(), except that it returns after a SIGTERM: the signal is blocked except
 * while the loop waits in pselect(), so it never interrupts the library, and the
 * program then exits normally (a server instrumented by BOLT for respec layout's
 * training writes its profile in its exit handlers).
 */
static void serve_until_stopped(void)
{
	sigset_t blocked, waiting;
	sigemptyset(&blocked);
	sigaddset(&blocked, SIGTERM);
	sigprocmask(SIG_BLOCK, &blocked, &waiting);
	sigdelset(&waiting, SIGTERM);
	struct sigaction action;
	memset(&action, 0, sizeof action);
	action.sa_handler = request_stop;
	sigaction(SIGTERM, &action, NULL);
	while (!stop_requested) {
		fd_set readable = svc_fdset;
		int ready = pselect(FD_SETSIZE, &readable, NULL, NULL, NULL, &waiting);
		if (ready < 0) {
			if (errno == EINTR)
				continue;
			perror("rpc server: pselect");
			return;
		}
		svc_getreqset(&readable);
	}
}

int rpc_server_run(int ready_fd)
{
	cap_descriptor_limit();
	int udp_sock = loopback_socket(SOCK_DGRAM);
	int tcp_sock = loopback_socket(SOCK_STREAM);
	if (udp_sock < 0 || tcp_sock < 0) {
		perror("rpc server: socket");
		return 1;
	}
	SVCXPRT *udp = svcudp_create(udp_sock);
	SVCXPRT *tcp = svctcp_create(tcp_sock, RPC_TCP_BUFFER_SIZE, RPC_TCP_BUFFER_SIZE);
	if (udp == NULL || tcp == NULL ||
	    !svc_register(udp, RPCBENCH_PROG, RPCBENCH_VERS, rpcbench_prog_1, 0) ||
	    !svc_register(tcp, RPCBENCH_PROG, RPCBENCH_VERS, rpcbench_prog_1, 0)) {
		fprintf(stderr, "rpc server: cannot create or register the transports\n");
		return 1;
	}
	dprintf(ready_fd, "%u %u\n", (unsigned)udp->xp_port, (unsigned)tcp->xp_port);
	close(ready_fd);
	serve_until_stopped();
	return stop_requested ? 0 : 1;
}
