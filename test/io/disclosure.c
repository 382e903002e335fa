/*
 * disclosure.c — a program discloses its behavior in its ELF file
 * (RESPEC_IO_DISCLOSE, read at startup by the shim) and the environment
 * (RESPEC_IO_HINTS) overrides it. This program says "random": a 20 MiB file it
 * reads in small pieces is mapped and populated whole at once, where the
 * undisclosed default maps a window at a time. Run under the shim with the
 * expected strategy as argument.
 */
#include "iotest.h"

RESPEC_IO_DISCLOSE("random");

int main(int argc, char **argv)
{
	CHECK(argc == 2, "usage: %s whole|window", argv[0]);
	const char *path = "disclosure.dat";
	free(make_file(path, 20 << 20, 0));
	int fd = open(path, O_RDONLY);
	uint64_t word;
	CHECK(read(fd, &word, 8) == 8 && word == 0, "first read");
	struct respec_io_info info = shim_info(fd);
	CHECK(info.specialized && strcmp(strategy_name(info.strategy), argv[1]) == 0,
	      "strategy %s (%s), expected %s", strategy_name(info.strategy),
	      info.why_generic ? info.why_generic : "specialized", argv[1]);
	CHECK(lseek(fd, 12 << 20, SEEK_SET) == 12 << 20 && read(fd, &word, 8) == 8 && word == 12 << 20,
	      "seek and read");
	close(fd);
	unlink(path);
	printf("PASS (%s)\n", argv[1]);
	return 0;
}
