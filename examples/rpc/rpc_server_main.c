/*
 * rpc_server_main.c — the rpc-server program: `rpc-server generic|respec` serves
 * RPCBENCH with that stack (rpc_stack.h), announcing its ports on standard output.
 * Tests and benchmarks start it (rpc_server_process.h); it stops with its parent,
 * and exits normally on SIGTERM (rpc_server.c).
 */
#include "rpc_stack.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

RPC_SERVER_DECLARE(generic_)
RPC_SERVER_DECLARE(respec_)

int main(int argc, char **argv)
{
	if (argc != 2 || (strcmp(argv[1], "generic") != 0 && strcmp(argv[1], "respec") != 0)) {
		fprintf(stderr, "usage: %s generic|respec\n", argv[0]);
		return 2;
	}
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() == 1)
		return 1;
	return strcmp(argv[1], "generic") == 0 ? generic_rpc_server_run(STDOUT_FILENO)
					       : respec_rpc_server_run(STDOUT_FILENO);
}
