/*
 * random_cbpf.c — the random-program suite: random valid cBPF programs
 * (random_program.h) × random packets, including truncated ones and loads at
 * out-of-range and overflowing offsets. The verdict of every variant must equal
 * libpcap's (bpf_filter of the installed libpcap.so on the same program), and no
 * variant may read outside the packet or write to it.
 *
 *   respec    the programs of the build-time spec (gen_random_spec), specialized
 *             by respec; each packet ends at an inaccessible page (diffcheck.h)
 *   asan      the same specialized code instrumented with AddressSanitizer (this
 *             file built with -fsanitize=address, the specialization compiled
 *             from respec's IR with -fsanitize=address); each packet is a heap
 *             block of exactly its captured length, so any read before or past
 *             it is reported
 *   runtime   fresh programs drawn from the seed, specialized at run time by
 *             librespec-jit (runtime_filter.h); packets end at the guard page
 *   selftest  libpcap with a planted bug: the suite must fail
 *   asan-selftest  (asan build) libpcap plus a read one byte past the packet:
 *             AddressSanitizer must report it
 *
 *   bpf-random-cbpf VARIANT [--seed N] [--iterations PACKETS] [--function random_N]
 *                   [--iteration I]
 * Every program sees PACKETS packets (default 1000); --seed changes the packets
 * and, for runtime, the programs.
 */
#include "diffcheck.h"
#include "random_program.h"
#include "random_programs.h"
#include "runtime_filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Programs the runtime variant draws and specializes per run. */
#define RUNTIME_PROGRAMS 200

typedef u_int (*match_fn)(const u_char *packet, u_int wirelen, u_int buflen);

/* The asan build links the instrumented object, which keeps respec's names. */
#ifdef BPF_RANDOM_ASAN
#define SPECIALIZED(n) match_random_##n
#else
#define SPECIALIZED(n) respec_match_random_##n
#endif
#define DECLARE(n) u_int SPECIALIZED(n)(const u_char *, u_int, u_int);
RANDOM_PROGRAM_LIST(DECLARE)

struct random_case {
	const struct bpf_insn *program;
	unsigned length;
	match_fn specialized;
};
#define CASE(n) \
	{ random_program_##n, sizeof random_program_##n / sizeof random_program_##n[0], SPECIALIZED(n) },
static const struct random_case build_time_cases[] = { RANDOM_PROGRAM_LIST(CASE) };

/* diffcheck keeps the name of the function under test: names must last. */
static const char *program_name(unsigned n)
{
	static char names[RANDOM_PROGRAM_COUNT > RUNTIME_PROGRAMS ? RANDOM_PROGRAM_COUNT
								  : RUNTIME_PROGRAMS][16];
	snprintf(names[n], sizeof names[n], "random_%u", n);
	return names[n];
}

struct tally {
	unsigned long long verdicts, accepted, truncated, empty;
};

/* libpcap with a planted bug for the self-test: a load just past a short packet
 * is taken to succeed. */
static u_int buggy_libpcap(const struct bpf_insn *program, const u_char *packet, u_int wirelen,
			   u_int buflen)
{
	u_int verdict = bpf_filter(program, packet, wirelen, buflen);
	return buflen > 0 && buflen < 14 && wirelen > buflen ? verdict ^ 1 : verdict;
}

#ifdef BPF_RANDOM_ASAN
/* For the asan self-test: what a specialization that reads past the packet
 * would do. */
static u_int overreading_libpcap(const struct bpf_insn *program, const u_char *packet,
				 u_int wirelen, u_int buflen)
{
	volatile u_char past_the_end = packet[buflen];
	(void)past_the_end;
	return bpf_filter(program, packet, wirelen, buflen);
}
#endif

/* Where a packet lives while a variant reads it. */
struct packet_home {
	struct diff_input guarded; /* ends at an inaccessible page */
	u_char *heap;              /* asan: a block of exactly buflen bytes */
};

static const u_char *place_packet(struct packet_home *home, const struct random_packet *packet,
				  bool asan)
{
	if (asan) {
		free(home->heap);
		home->heap = malloc(packet->buflen);
		if (home->heap == NULL && packet->buflen > 0) {
			perror("malloc");
			exit(2);
		}
		memcpy(home->heap, packet->bytes, packet->buflen);
		return home->heap;
	}
	u_char *data = diff_input_place(&home->guarded, packet->buflen);
	memcpy(data, packet->bytes, packet->buflen);
	diff_input_seal(&home->guarded);
	return data;
}

/* Runs every packet of one program through the variant and libpcap. */
static void check_program(struct diff_run *run, const char *name, const struct bpf_insn *program,
			  unsigned length, match_fn specialized, bpf_match_fn program_fn,
			  struct packet_home *home, bool asan, struct tally *tally)
{
	struct diff_rng rng;
	struct random_packet packet;
	while (diff_next(run, name, &rng)) {
		random_packet(&rng, &packet);
		const u_char *data = place_packet(home, &packet, asan);
		u_int expected = bpf_filter(program, data, packet.wirelen, packet.buflen);
		u_int actual = specialized ? specialized(data, packet.wirelen, packet.buflen)
					   : program_fn(program, data, packet.wirelen, packet.buflen);
		if (actual != expected)
			diff_fail(run, "verdict differs on a packet of %u captured / %u wire bytes "
				       "(program of %u instructions): libpcap %u, variant %u",
				  packet.buflen, packet.wirelen, length, expected, actual);
		if (!asan)
			diff_expect_input_unchanged(run, "packet", &home->guarded);
		else if (memcmp(data, packet.bytes, packet.buflen) != 0)
			diff_fail(run, "the variant wrote to the packet");
		tally->verdicts++;
		tally->accepted += expected != 0;
		tally->truncated += packet.wirelen > packet.buflen;
		tally->empty += packet.buflen == 0;
	}
}

#ifdef RESPEC_BPF_RUNTIME
static void check_runtime_programs(struct diff_run *run, struct packet_home *home,
				   struct tally *tally)
{
	respec_jit *jit = bpf_runtime_create();
	if (jit == NULL)
		exit(2);
	for (unsigned n = 0; n < RUNTIME_PROGRAMS; n++) {
		const char *name = program_name(n);
		if (run->only_function != NULL && strcmp(run->only_function, name) != 0)
			continue;
		/* The program depends on the seed and its number only, for replays. */
		struct diff_rng rng = { run->seed ^ (0x9e3779b97f4a7c15ULL * (n + 1)) };
		struct bpf_insn insns[RANDOM_PROGRAM_MAX];
		struct bpf_program program = { random_program(&rng, insns, RANDOM_PROGRAM_MAX), insns };
		if (!bpf_validate(program.bf_insns, (int)program.bf_len))
			diff_fail(run, "generated a program bpf_validate rejects");
		bpf_match_fn specialized = bpf_runtime_specialize(jit, &program);
		if (specialized == NULL)
			diff_fail(run, "run-time specialization failed: %s", respec_jit_error(jit));
		check_program(run, name, insns, program.bf_len, NULL, specialized, home,
			      false, tally);
	}
	struct respec_jit_stats stats;
	respec_jit_get_stats(jit, &stats);
	printf("run-time specialization: %u programs in %.1f ms\n", stats.specializations,
	       stats.total_ms);
	respec_jit_destroy(jit);
}
#endif

int main(int argc, char **argv)
{
	struct diff_run run;
	diff_begin(&run, argc, argv, 1000);
	bool asan = false, runtime = false, selftest = false;
	bpf_match_fn buggy = buggy_libpcap;
#ifdef BPF_RANDOM_ASAN
	selftest = strcmp(run.variant, "asan-selftest") == 0;
	asan = selftest || strcmp(run.variant, "asan") == 0;
	buggy = overreading_libpcap;
#else
	selftest = strcmp(run.variant, "selftest") == 0;
#ifdef RESPEC_BPF_RUNTIME
	runtime = strcmp(run.variant, "runtime") == 0;
#endif
#endif
	if (!asan && !runtime && !selftest && strcmp(run.variant, "respec") != 0) {
		fprintf(stderr, "unknown variant '%s' for this build\n", run.variant);
		return 2;
	}

	struct packet_home home = { 0 };
	diff_input_init(&home.guarded, sizeof ((struct random_packet *)0)->bytes);
	struct tally tally = { 0 };
	unsigned programs = 0;
	if (runtime) {
#ifdef RESPEC_BPF_RUNTIME
		check_runtime_programs(&run, &home, &tally);
		programs = RUNTIME_PROGRAMS;
#endif
	} else {
		for (unsigned n = 0; n < RANDOM_PROGRAM_COUNT; n++) {
			const struct random_case *c = &build_time_cases[n];
			check_program(&run, program_name(n), c->program, c->length,
				      selftest ? NULL : c->specialized, buggy, &home, asan, &tally);
		}
		programs = RANDOM_PROGRAM_COUNT;
	}
	printf("%s: %u programs, %llu verdicts equal to libpcap's (%.1f%% accepted; %.1f%% of "
	       "packets truncated, %.1f%% empty)\n",
	       run.variant, programs, tally.verdicts, 100.0 * tally.accepted / tally.verdicts,
	       100.0 * tally.truncated / tally.verdicts, 100.0 * tally.empty / tally.verdicts);
	/* Programs that all accept, or all reject, would test half the code. */
	if (run.only_function == NULL && !run.has_only_iteration &&
	    (tally.accepted < tally.verdicts / 10 || tally.verdicts - tally.accepted < tally.verdicts / 10)) {
		fprintf(stderr, "FAIL: the generator hardly reaches one of the outcomes\n");
		return 1;
	}
	free(home.heap);
	diff_input_destroy(&home.guarded);
	return 0;
}
