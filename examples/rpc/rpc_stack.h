/*
 * rpc_stack.h — the entry points of one complete Sun RPC stack of the case study:
 * the client program's calls (rpc_client.c) and the server's main loop
 * (rpc_server.c), each linked with the real library, the rpcgen stubs and the
 * generated XDR routines into one object per stack variant:
 *
 *   generic  the library and the stubs as they are;
 *   respec   the same, with the stubs' XDR routines for RPCBENCH's arguments and
 *            results routed to the specialized entry points (rpc_hook.c).
 *
 * Each object exports only these functions, renamed with the variant prefix, so that
 * one program links both stacks (RPC_CLIENT_DECLARE / RPC_SERVER_DECLARE declare one
 * prefixed set).
 */
#ifndef RPC_STACK_H
#define RPC_STACK_H

#include "rpcbench.h"

#include <stdbool.h>

/*
 * RPC_TCP clients and the server's TCP transport use RPC_TCP_BUFFER_SIZE for their
 * send and receive buffers, so that one record stream buffer holds a whole ECHO_INTS
 * message, as UDP's 8800-byte messages do. RPC_TCP_SMALL_BUFFERS is a TCP client with
 * the library's default 4000-byte buffers: a large array then spans record fragments
 * and reads, and the specialized stack must fall back on the stream (rpc_hook.c).
 */
enum rpc_transport { RPC_UDP, RPC_TCP, RPC_TCP_SMALL_BUFFERS };

#define RPC_TCP_BUFFER_SIZE 16384

#define RPC_CLIENT_DECLARE(prefix)                                                        \
	/* A client of the RPCBENCH server on 127.0.0.1:port, or NULL (with a message     \
	 * on stderr). Caps the process's descriptor limit at FD_SETSIZE first: Sun RPC  \
	 * 4.0 passes getdtablesize() to select() with a fixed-size fd_set. */            \
	CLIENT *prefix##rpc_client_open(enum rpc_transport transport, unsigned short port); \
	void prefix##rpc_client_close(CLIENT *client);                                      \
	/* The last call's status (enum clnt_stat) and a description of it, with errno   \
	 * (this Sun RPC has no error messages). */                                         \
	enum clnt_stat prefix##rpc_client_status(CLIENT *client);                           \
	const char *prefix##rpc_client_error(CLIENT *client);                               \
	/* RMIN(a, b) into *minimum; false if the call failed. */                            \
	bool prefix##rpc_client_rmin(CLIENT *client, int a, int b, int *minimum);           \
	/* ECHO_INTS(values[0..count-1]) into echoed (room for count ints); returns the  \
	 * echoed count, or -1 if the call failed. */                                       \
	int prefix##rpc_client_echo_ints(CLIENT *client, const int *values, unsigned count, \
					 int *echoed);                                      \
	/* ECHO_RECORD(*sent) into *echoed, whose name and origin the caller frees;     \
	 * false if the call failed. */                                                     \
	bool prefix##rpc_client_echo_record(CLIENT *client, const record *sent, record *echoed);

#define RPC_SERVER_DECLARE(prefix)                                                     \
	/* Serves RPCBENCH over UDP and TCP on 127.0.0.1 (ephemeral ports), writes       \
	 * "UDP_PORT TCP_PORT\n" to ready_fd and closes it, then serves forever; returns \
	 * only on failure (with a message on stderr). Caps the descriptor limit as the  \
	 * client does. */                                                                \
	int prefix##rpc_server_run(int ready_fd);

#endif /* RPC_STACK_H */
