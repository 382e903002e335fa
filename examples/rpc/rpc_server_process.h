/*
 * rpc_server_process.h — starts and stops the case study's RPC server (the rpc-server
 * program) from a test or benchmark, which then talks to it over the loopback.
 */
#ifndef RPC_SERVER_PROCESS_H
#define RPC_SERVER_PROCESS_H

#include <stdbool.h>
#include <sys/types.h>

struct rpc_server_process {
	pid_t pid;
	unsigned short udp_port, tcp_port;
};

/*
 * Runs `program variant` (variant: generic or respec) and waits until it serves;
 * false (with a message on stderr) if it does not start. The server dies with its
 * parent, so a crashed test leaves none behind.
 */
bool rpc_server_start(struct rpc_server_process *server, const char *program,
		      const char *variant);

/* Stops the server (SIGTERM); false (with a message) if it had died on its own
 * before, or did not exit with status 0. */
bool rpc_server_stop(struct rpc_server_process *server);

#endif /* RPC_SERVER_PROCESS_H */
