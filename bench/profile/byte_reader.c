/*
 * byte_reader.c — bench-profile's program that reads a file one byte per
 * read(2), as the Synthetix paper's is_read benchmark did: the case where the
 * I/O predicate (a file read privately and in sequence) pays most. It prints
 * the bytes' sum, which bench-profile compares with and without librespec-io.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: bench-profile-byte-reader FILE\n");
		return 2;
	}
	int fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	unsigned long sum = 0;
	unsigned char byte;
	while (read(fd, &byte, 1) == 1)
		sum += byte;
	close(fd);
	printf("%lu\n", sum);
	return 0;
}
