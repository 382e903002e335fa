/* The generic code of spec.c's spec: a stream with an ops table. */
struct xdr_ops { int (*x_putlong)(long); };
typedef struct { const struct xdr_ops *x_ops; int x_op; } XDR;
struct stream { int op; XDR *xdrs; };
extern int mode;
