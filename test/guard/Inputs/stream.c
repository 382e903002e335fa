#include "stream.h"
int mode;
void set_ops(XDR *x, const struct xdr_ops *ops) { x->x_ops = ops; }
void set_put(struct xdr_ops *ops, int (*put)(long)) { ops->x_putlong = put; }
void set_op(struct stream *s, int op) { s->op = op; }
void set_mode(int m) { mode = m; }
