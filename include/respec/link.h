/*
 * link.h — what a program discloses to the libraries it is linked with.
 *
 * OMOS let a program tell its libraries what it is like ("big-io",
 * "long-running") so that they could adapt. With respec a library ships
 * link-time rules (link/rules.h) that `respec link` evaluates when it links a
 * program, and librespec-link-audit.so when an already linked program starts:
 * the rules read which symbols the program references and which properties
 * it discloses here.
 *
 *   #include <respec/link.h>
 *   RESPEC_PROPERTY("big-io");
 *
 * at file scope, in any source of the program: the property goes into an ELF
 * note (section .note.respec.property) of that object, and the linker carries
 * it into the program. Properties of all objects are unioned; `respec link
 * --explain` says which object disclosed each. A name is letters, digits,
 * '-', '_' and '.'; one property per RESPEC_PROPERTY, as many as you like.
 *
 * A property is a promise about the whole program: a library may choose or
 * specialize its code by it (a program that discloses "single-threaded"
 * gets code without locks). Disclose only what holds in every run.
 */
#ifndef RESPEC_LINK_H
#define RESPEC_LINK_H

#define RESPEC_PROPERTY_NOTE_TYPE 0x52504c31u /* "RPL1" */

#define RESPEC_PROPERTY_CAT2_(a, b) a##b
#define RESPEC_PROPERTY_CAT_(a, b) RESPEC_PROPERTY_CAT2_(a, b)

/* An ELF note: name "respec", type RESPEC_PROPERTY_NOTE_TYPE, the property's
 * name (with its NUL) as the descriptor, padded to 4 bytes. */
#define RESPEC_PROPERTY(name)                                                            \
	__attribute__((section(".note.respec.property"), used, aligned(4))) static const struct { \
		unsigned int namesz, descsz, type;                                            \
		char owner[8];                                                                \
		char desc[(sizeof(name) + 3) & ~3u];                                          \
	} RESPEC_PROPERTY_CAT_(respec_property_, __COUNTER__) = {                             \
		7, sizeof(name), RESPEC_PROPERTY_NOTE_TYPE, "respec", name}

#endif /* RESPEC_LINK_H */
