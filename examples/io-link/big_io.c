/* The disclosure the io rules' variant links into a program that discloses big I/O at
 * link time (respec link --property big-io): librespec-io reads it at startup and never
 * makes a private copy of a file for it (io/README.md, "Disclosure"). */
#include <respec/io.h>

RESPEC_IO_DISCLOSE("big-io");
