/* librespec-jit specializes fixed_poly from the embedded bitcode at run time; its
 * results must equal the generic poly_eval's. librespec-io must read this
 * program's own file exactly as read(2) does. */
#include <respec/io.h>
#include <respec/jit.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "poly.h"

RESPEC_DECLARE_BITCODE(poly);

static int check_io(const char *path)
{
	static char expected[1 << 16], got[1 << 16];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, expected, sizeof expected);
	int rfd = respec_io_open(path, O_RDONLY);
	ssize_t m = rfd < 0 ? -1 : respec_io_read(rfd, got, sizeof got);
	if (fd >= 0)
		close(fd);
	if (rfd >= 0)
		respec_io_close(rfd);
	if (n <= 0 || m != n || memcmp(expected, got, (size_t)n) != 0) {
		fprintf(stderr, "poly_jit: respec_io_read read %zd bytes of %s, read(2) %zd\n",
			m, path, n);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	(void)argc;
	respec_jit *jit = respec_jit_create(respec_bitcode_poly, respec_bitcode_poly_size);
	if (!jit)
		return 1;
	struct respec_arg args[] = {RESPEC_DYNAMIC};
	long (*specialized)(long) =
		(long (*)(long))respec_jit_specialize(jit, "fixed_poly", args, 1);
	if (!specialized) {
		fprintf(stderr, "poly_jit: %s\n", respec_jit_error(jit));
		return 1;
	}
	static const long coefficients[] = FIXED_POLY_COEFFICIENTS;
	const struct poly p = {FIXED_POLY_DEGREE, coefficients};
	int inputs = 0;
	for (long x = -5000; x <= 5000; x += 7, inputs++)
		if (specialized(x) != poly_eval(&p, x)) {
			fprintf(stderr, "poly_jit: x=%ld: specialized %ld, generic %ld\n", x,
				specialized(x), poly_eval(&p, x));
			return 1;
		}
	respec_jit_destroy(jit);
	printf("poly_jit: run-time specialized == generic on %d inputs\n", inputs);
	return check_io(argv[0]);
}
