/*
 * rpc_private.h — the layouts of the Sun RPC library's private structures that
 * the optimistic client's spec names (rpc_call_spec.c): the UDP and TCP client
 * handles' private data (clnt_udp.c's struct cu_data, clnt_tcp.c's struct
 * ct_data), the record stream behind a TCP handle (xdr_rec.c's RECSTREAM) and
 * the AUTH_NONE authenticator's singleton (auth_none.c's struct
 * authnone_private). Each is declared in its .c file only; these mirrors
 * repeat the declarations field for field, under the same field names.
 *
 * A spec that reads a mirror is only as right as the mirror:
 * rpc_optimistic.c checks each one against a live handle (pointers the
 * library set up that must meet where the layout says) before it uses the
 * spec on that handle, and leaves a handle that fails the check generic.
 */
#ifndef RPC_PRIVATE_H
#define RPC_PRIVATE_H

#include <rpc/rpc.h>

#include <stdint.h>

/* clnt_udp.c */
struct cu_data {
	int cu_sock;
	bool_t cu_closeit;
	struct sockaddr_in cu_raddr;
	int cu_rlen;
	struct timeval cu_wait;
	struct timeval cu_total;
	struct rpc_err cu_error;
	XDR cu_outxdrs;
	unsigned int cu_xdrpos;
	unsigned int cu_sendsz;
	char *cu_outbuf;
	unsigned int cu_recvsz;
	char cu_inbuf[1];
};

/* clnt_tcp.c */
#define RPC_MCALL_MSG_SIZE 24
struct ct_data {
	int ct_sock;
	bool_t ct_closeit;
	struct timeval ct_wait;
	bool_t ct_waitset;
	struct sockaddr_in ct_addr;
	struct rpc_err ct_error;
	char ct_mcall[RPC_MCALL_MSG_SIZE];
	unsigned int ct_mpos;
	XDR ct_xdrs;
};

/* xdr_rec.c */
struct rpc_record_stream {
	char *tcp_handle;
	char *the_buffer;
	int (*writeit)(char *, char *, int);
	char *out_base;
	char *out_finger;
	char *out_boundry;
	uint32_t *frag_header;
	bool_t frag_sent;
	int (*readit)(char *, char *, int);
	unsigned long in_size;
	char *in_base;
	char *in_finger;
	char *in_boundry;
	long fbtbc;
	bool_t last_frag;
	unsigned int sendsize;
	unsigned int recvsize;
};

/* auth_none.c */
#define RPC_AUTHNONE_MARSHAL_SIZE 20
struct authnone_private {
	AUTH no_client;
	char marshalled_client[RPC_AUTHNONE_MARSHAL_SIZE];
	unsigned int mcnt;
};

#endif /* RPC_PRIVATE_H */
