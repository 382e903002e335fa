//===- ProfileReport.h - `respec profile report`: rank what a profile found -*- C++ -*-===//
//
// What it does. Reads the profiles an instrumented program wrote
// (ValueProfilePass.cpp, profile/runtime) and ranks candidate predicates:
// facts that held on (almost) every observation, with what specializing on
// them would save and what keeping them true would cost.
//
// A candidate is a value site's dominant value in one function (sites with the
// same expression in a function merge): `s->op == 0`, `s->ops->put == 0x...`,
// a parameter's value, or a region (the memory an interpreter walks through a
// parameter) whose every offset always read the same value. The estimate, in
// ns over the profiled run, is Synthetix's (seeds, file 000, Eq. 1-2):
//
//   benefit  = observations of the dominant value (each is a load, a test and
//              what depends on it, that specialization evaluates away)
//              x the ns one observation saves (below)
//   cost     = specializing at run time: for a region of memory the run
//              computed (a compiled filter), librespec-jit's SpecializeNs,
//              once; facts a spec can state from the source (integers,
//              variables, a variable's memory) are specialized at build time,
//              which the run does not pay
//            + guards: every write to the term (TBAA base type and offset,
//              counted in every instrumented function; stores without a
//              struct-path tag — memcpy, code built -fno-strict-aliasing,
//              uninstrumented libraries — are not seen) costs GuardNs
//            + replugs: every change of the site's value (estimated, once
//              observations are sampled) costs ReplugNs (a broken
//              quasi-invariant re-specializes or falls back)
//            + for a parameter that is not always the same, a dispatch per
//              call (an observation's worth).
//   score    = benefit - cost.
//
// Candidates are ranked by their worth: the score without the one-time cost
// of specializing at run time, what they save per run of this length once
// specialized. A profiling run is shorter than the runs it stands for (a
// capture of 20,000 packets, for a filter that runs for days), so the one-time
// cost, which would order a short run's trivial facts above its interpreter,
// is given with each candidate instead: its score, and when that is negative
// how much longer a run must be to repay it. A candidate is listed when its
// worth is positive and a hundredth of the best's or more.
// A fact whose term is written more than a tenth as often as it is read is not
// a candidate: librespec's guarded store replugs at each write to an object
// whose specialized code is live, and the profile does not tell those writes
// from the ones that set up a new object (charged a guard only).
//
// What an observation saves is measured. The value candidates are first
// ranked at 1 ns an observation (files aside, no --top cut), and the first
// functions of that order are specialized by the partial evaluator (below),
// which predicts the IR instructions per call their facts save; calls x that x
// InstructionNs (at least 0) is what the facts save over the run, and spread
// over the observations of all the function's candidates (and of its
// quasi-invariant's variants) it prices each of them. Every other candidate's
// observations are priced at the priced functions' total saving over their
// observations (1 ns when none was priced). A measured function that the
// pricing leaves out of the list is reported after it, with what its measure
// found; a measured function's draft spec states the facts its measure saw.
// InstructionNs is a constant of the machine, not the run's CPU
// time over the instructions it counted: that figure holds the code the
// profiling did not count (libc, the kernel), the profiling and the process's
// start, and errs high by ten times on a filter's run; the report shows it.
//
// A field that takes a few values (at most 8) is still a candidate when each object keeps
// its value while it is read (a stream's operation: encode for one stream,
// decode for another): by its term, over every function that reads it, when
// it is read at least ten times as often as it is written. Its benefit is the
// reads; its cost, per write, a guard and the choice of the variant
// specialized for the new value (ChooseNs: a switch and a store where the
// value is written; the draft's librespec sketch, which re-chooses by a
// replug, costs ReplugNs per write to a live object). This is Synthetix's quasi-invariant of an
// object, specialized where it is written.
//
// A file a program read (the files observer, profile/runtime/file_observer.c)
// is a candidate when nothing shared its offset while it was open: no dup, no
// fork, no child spawned that inherits it, no second reading thread. That is the I/O case study's predicate
// (librespec-io's: read-only, private, sequential; seeks elsewhere are counted,
// and cost librespec-io a store). Its estimate is in ns: the time its reads
// spent in read(2), as the observer timed it, less what librespec-io would do
// instead: its read, setting up each open, populating the page tables of the
// mapping, and the copy, which moves the same
// bytes from the mapping (the reads' time beyond read(2)'s fixed cost, at most
// 1 ns a byte). The fixed costs are librespec-io's constants as it measured
// them where the program ran (the observer records them from its cache), else
// its built-in ones. The predicted speedup is the
// program's: its processes' CPU time (less the observer's own share, which it
// measures) over its time outside these reads plus librespec-io's instead.
//
// GuardNs, ReplugNs and SpecializeNs default to librespec's measured
// constants (bench/results/runtime.json: a guarded store costs about what a
// plain store does, a replug under a microsecond; bench/results/bpf.json:
// librespec-jit specializes and compiles a filter in about 1.6 ms), and are
// options, as are ChooseNs and InstructionNs.
//
// What specialization saves is measured, for the first functions, by the
// partial evaluator itself: a spec that includes the function's source (its
// path, directory and command line are in the profile's module record: clang
// records the command line with -frecord-command-line) calls it with and
// without the integer facts, and `respec explain --json` counts the specialized
// instructions of both. A region read whole (no offset ever read two values)
// is stated as a constant array holding the bytes the run read (bytes it never
// read are zero: an approximation of a program whose unvisited branches the
// measure then sees as zeros), passed for its parameter. A pointer fact is
// stated when the program's symbol tables name the variable it points into
// (the value runtime writes a variable record for such a value, from the
// .symtab of the program's images, file-statics with their source file):
// `xdrs->x_ops == respec_variable("xdr_mem.c:xdrmem_ops")`, the defining
// source beside the measuring spec; when the run wrote no member of the
// struct it points to (no write to any of its terms), its contents are stated
// static too (respec_static_variable: an operations table's entries fold,
// and the calls through them). Other addresses of the run are not stated: a
// spec cannot name them.
//
// The predicted speedup is Synthetix's generic cost over specialized cost per
// call, in IR instructions executed. The block records say how many
// instructions of each source line the run executed; explain says, per line
// it reached, how often its instructions were evaluated away and how often
// left residual. Each line's executions are weighed by its residual share:
// without the facts (what compiling the generic code folds too) and with them
// (a line no longer reached costs nothing). Each sum is scaled by what LLVM's
// cleanup kept of the residual code (instructions after it over instructions
// emitted: the redundant loads and proven branches it removes), divided by
// the calls, and CallCost is added to both: a call whose body folds away
// still costs its call, return and argument moves. A measured function that
// reads a per-object quasi-invariant (its own field site of the first ranked
// term candidate, every value counted exactly) is specialized once per value
// of it (each with 1% of the site's observations or more), with its other
// facts: Synthetix's variant per value, chosen where the object's value is
// written. A line then costs its residual share in the variants that reach
// it (their mean, weighed by the calls each serves: the block counts do not
// say which value's calls ran a line that several variants reach), and the
// draft spec holds a function per value.
//
// One cost is the machine's, not the instructions': a mispredicted branch.
// A branch the facts leave (on a line the specialized code keeps) tests what
// they do not fix, a packet's bytes or the input, and the generic code makes
// the same decision (in that test, or in the dispatch that follows it), so
// its mispredictions cost both sides alike: they are what keeps the speedup
// of a filter over unpredictable packets below its ratio of instructions.
// The branch records count each branch's two ways; a branch is estimated to
// miss each time it goes its rarer way (as a predictor would on independent
// outcomes; a branch whose ways alternate in a pattern is predicted better,
// one at 50% no worse). Each miss costs MispredictCost IR instructions, on
// both sides. A line's misses are weighed by the share of its conditional
// branches the partial evaluator left residual with the facts, and by the
// share of the specialized code's conditional branches that LLVM's cleanup
// kept (it proves some, and makes others selects, which do not mispredict:
// a filter whose tests become a chain of selects pays for none). Branches
// the facts fold are taken as predicted in the generic code (a fixed
// program's dispatch repeats). explain's JSON gives the counts: per line, its
// branches evaluated and residual; per function, its conditional branches
// emitted and after cleanup (a switch counts its cases). Two limits: the
// misses are a generic branch's, so where one interpreter branch stands for
// several specialized ones (every conditional jump of a filter runs one line
// of libpcap's interpreter) their ways add up before the rarer one is taken,
// which may charge tests that are each well predicted; and the cleanup's
// share is the function's, not each branch's.
//
// The model assumes a line's executions split as its specialization did,
// counts a callee's lines for all its callers, and knows nothing else of the
// machine (a folded load is worth a folded add). CallCost's default, 10, is
// about what bench/run bpf measures for a filter whose body LLVM folds to
// `return 0` (ip6-tcp-syn: 1.6 ns, the generic code running about 5.5 IR
// instructions per ns). MispredictCost's, 30: a miss costs a current x86 core
// about 15-20 cycles, 5-9 ns at this machine's 2.3-3 GHz, 27-48 instructions
// at that rate. bench/run profile compares the prediction with the measured
// speedup of libpcap's filters.
//
// For a measured function the report also gives Synthetix's estimate for
// its facts together: calls x (generic - specialized IR instructions per
// call) x InstructionNs, less specializing at run time (per variant) and
// keeping the facts true; with its break-even when specializing costs the
// run: the calls whose savings, less the guards and replugs at the run's
// rate, pay for specializing once. It also says how long respec took to
// specialize the facts at build time (compiling the source too).
//
// Draft specs (--specs DIR) are the measuring specs, with what the run saw of
// every fact of the function in a comment: they compile as they are. The
// comment also lists the guards the facts need: what `respec guard --spec`
// finds, run on the draft over the program's sources (every statement that
// may write a term of a stated fact, or free its object), so that a
// quasi-invariant's writes can become guarded stores; and, when a fact's
// term was written in the run, how to keep it true with librespec, in the
// function's names: a slot per object holding the specialized code (for a
// per-object quasi-invariant, the variant for the object's value, chosen
// again by the predicate's respecialize callback after each break), a
// predicate on the term watching the object's SPID, and the guarded store
// each listed write becomes.
//
// Functions are named as they are linked: two file-static functions of one
// name in different files are merged (their values, counts and prototypes).
//
// Profile format (text, one record per line, fields separated by tabs; the
// first line is `respec-profile 1`):
//
//   module  SOURCE DIRECTORY COMMAND-LINE "" "" 1
//   call    FUNCTION LOCATION PROTOTYPE SOURCE "" CALLS
//   param   FUNCTION LOCATION NAME INDEX CTYPE COUNT CHANGES VALUES
//   field   FUNCTION LOCATION EXPR TERM CTYPE COUNT CHANGES VALUES
//   region  FUNCTION LOCATION PARAM TERM CTYPE COUNT BASES STATS [CELLS]
//   write   FUNCTION LOCATION "" TERM "" COUNT
//   block   FUNCTION LOCATION FILE LINES "" COUNT
//   branch  FUNCTION LOCATION FILE LINE "" COUNT HELD
//   file    PROGRAM PATH FILE-STATS "" "" READS
//   process PROGRAM OBSERVER-NS "" "" "" CPU-NS
//   run     PROGRAM "" "" "" "" CPU-NS
//   iocosts "" COSTS CACHE-FILE "" "" 1
//   variable ADDRESS FILE NAME OFFSET "" 1
//   function ADDRESS FILE NAME OFFSET "" 1
//
// VALUES: comma-separated hex:count:error (space-saving top values); STATS:
// offsets:changed:stable-reads:untracked:low:high; CELLS, when no offset
// changed: comma-separated offset:size:hex value. FILE: the block's source,
// absolute; LINES: comma-separated line=instructions of the block. HELD: the
// branch's executions whose condition held (it went to its first successor).
// FILE-STATS: opens:bytes read:preads:seeks elsewhere:shares (dup, fork):reads
// by a second thread:largest size:ns in read(2). COSTS: librespec-io's read(2)
// ns, kernel and user copy ns per KiB, setup ns, map ns, page-table population
// ns per KiB. OBSERVER-NS: the files
// observer's own share of the CPU time. ADDRESS (hex), an observed pointer
// value, is OFFSET bytes into the variable NAME, defined in FILE (a source's
// file name, empty for a global symbol); a function record, the same for a
// function (a function pointer's value: named in the report, not stated).
// Profiles of several runs (each with its own addresses: ASLR) merge a
// pointer value into a named variable or function by its name: the first
// profile's address stands for it. Heap addresses have no name and do not
// merge.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PROFILE_PROFILEREPORT_H
#define RESPEC_PROFILE_PROFILEREPORT_H

#include <string>
#include <vector>

namespace respec::profile {

struct ReportOptions {
  std::vector<std::string> profiles;
  unsigned top = 10;
  /// Minimum share of a site's observations the dominant value must have.
  double dominance = 0.9;
  /// Functions whose facts are measured with respec explain (the first ranked
  /// at 1 ns an observation).
  unsigned measure = 3;
  /// What a call costs when its body is gone (the call and return, moving
  /// the arguments), in IR instructions, for the predicted speedup.
  double callCost = 10.0;
  /// What a mispredicted branch costs, in IR instructions, for the predicted
  /// speedup: the ones the facts leave, on both sides.
  double mispredictCost = 30.0;
  /// What one IR instruction of the generic code takes, in ns, to price the
  /// instructions specialization saves (bench/results/profile.json: libpcap's
  /// interpreter, 26.7 ns per packet for 111.6 IR instructions per call).
  double instructionNs = 0.25;
  /// A guarded store's cost above a plain one, and a replug's (a guard that
  /// fires), in ns, from bench/results/runtime.json
  /// (guard_ns_above_plain_store: 0.004; guard-fire: 779 ns).
  double guardNs = 0.004, replugNs = 779;
  /// Per write to a per-object quasi-invariant: choosing the variant for its
  /// new value where it is written (a switch and a store), in ns.
  double chooseNs = 10;
  /// Specializing on memory the run computed, at run time with librespec-jit,
  /// in ns (bench/results/bpf.json: runtime_gen_ms_median, 1.57 ms to
  /// specialize and compile a filter).
  double specializeNs = 1.6e6;
  /// Where draft specs go (one file per function of the top candidates); empty: none.
  std::string specDir;
  /// Where the report also goes as one self-contained HTML page; empty: nowhere.
  std::string htmlPath;
  /// For files read privately, what librespec-io does instead of a read(2):
  /// its read (bench/run io: 2.7 ns for one byte under the shim); and from its
  /// built-in cost constants (io/costs.c), read(2)'s fixed cost (what of a
  /// read's time is not its copy), setting up one open (its checks, lease
  /// and mapping) and populating page tables per KiB. A profile's iocosts
  /// record (the ones librespec-io measured where the program ran) replaces
  /// the last three.
  double ioSpecializedReadNs = 3, ioSyscallNs = 300, ioOpenNs = 11500, ioPopulateNsPerKiB = 50;
};

/// Prints the ranked report to standard output; throws SpecError on a bad profile.
void report(const ReportOptions &Options);

} // namespace respec::profile

#endif
