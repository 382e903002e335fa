/*
 * api.c — the API's own entry points: adopting a descriptor opened elsewhere,
 * readv and pread through the specialized path, unspecializing before handing
 * the descriptor on (the kernel offset must then be the logical one), what
 * respec_io_info says and why, the counters, and more descriptors open at once
 * than the first arena of the descriptor table holds.
 */
#include "iotest.h"

int main(void)
{
	const char *path = "api.dat";
	free(make_file(path, 1 << 20, 0));

	int fd = open(path, O_RDONLY);
	CHECK(lseek(fd, 800, SEEK_SET) == 800, "seek before adopting");
	CHECK(respec_io_adopt(fd) == 0, "adopt");
	CHECK(respec_io_adopt(-1) == -1 && errno == EBADF, "adopt(-1)");
	uint64_t words[3];
	CHECK(respec_io_read(fd, words, 8) == 8 && words[0] == 800, "first read after adopting");
	struct respec_io_info info;
	CHECK(respec_io_info(fd, &info) == 0 && info.specialized && info.guard == RESPEC_IO_GUARD_LEASE,
	      "adopted descriptor not specialized: %s", info.why_generic ? info.why_generic : "?");
	CHECK(strcmp(respec_io_strategy_name(info.strategy), "buffer") != 0 || info.size == 1 << 20,
	      "size");
	struct iovec iov[2] = {{&words[0], 8}, {&words[1], 16}};
	CHECK(respec_io_readv(fd, iov, 2) == 24 && words[0] == 808 && words[1] == 816 && words[2] == 824,
	      "readv");
	CHECK(respec_io_pread(fd, words, 8, 4096) == 8 && words[0] == 4096, "pread");
	CHECK(respec_io_lseek(fd, 0, SEEK_CUR) == 832, "offset after readv");

	/* Back to read(2) for good: the kernel's offset is the logical one. */
	CHECK(respec_io_unspecialize(fd) == 0, "unspecialize");
	CHECK(lseek(fd, 0, SEEK_CUR) == 832, "kernel offset %lld", (long long)lseek(fd, 0, SEEK_CUR));
	respec_io_info(fd, &info);
	CHECK(!info.specialized && info.why_generic != NULL, "still specialized");
	CHECK(respec_io_read(fd, words, 8) == 8 && words[0] == 832, "read after unspecialize");
	CHECK(respec_io_unspecialize(-5) == -1 && errno == EBADF, "unspecialize(-5)");
	CHECK(respec_io_close(fd) == 0, "close");
	CHECK(respec_io_close(fd) == -1 && errno == EBADF, "close twice");

	/* unspecialize_all, as before a fork the API cannot see. */
	fd = respec_io_open(path, O_RDONLY);
	CHECK(respec_io_read(fd, words, 8) == 8, "read");
	respec_io_unspecialize_all();
	CHECK(lseek(fd, 0, SEEK_CUR) == 8, "kernel offset after unspecialize_all");
	respec_io_close(fd);

	/* More descriptors open at once than the first arena of io_file structs holds
	 * (64, static): the next ones come from mapped arenas. Each reads on from
	 * its own offset. */
	enum { MANY = 150 };
	int many[MANY];
	for (int i = 0; i < MANY; i++) {
		many[i] = respec_io_open(path, O_RDONLY);
		CHECK(many[i] >= 0, "open descriptor %d of %d: %s", i, MANY, strerror(errno));
		CHECK(respec_io_lseek(many[i], 8 * i, SEEK_SET) == 8 * i, "seek descriptor %d", i);
	}
	for (int i = 0; i < MANY; i++) {
		CHECK(respec_io_read(many[i], words, 16) == 16 && words[0] == 8u * i &&
			      words[1] == 8u * i + 8,
		      "descriptor %d (fd %d) read %llu", i, many[i], (unsigned long long)words[0]);
		CHECK(respec_io_info(many[i], &info) == 0 && info.specialized,
		      "descriptor %d not specialized: %s", i, info.why_generic ? info.why_generic : "?");
	}
	for (int i = 0; i < MANY; i++)
		CHECK(respec_io_close(many[i]) == 0, "close descriptor %d", i);

	struct respec_io_stats stats;
	respec_io_get_stats(&stats);
	CHECK(stats.unspecializations >= 2 && stats.shared >= 2, "counters: %llu unspecializations",
	      (unsigned long long)stats.unspecializations);
	CHECK(strcmp(respec_io_guard_name(RESPEC_IO_GUARD_LEASE), "lease") == 0, "guard name");
	unlink(path);
	printf("PASS\n");
	return 0;
}
