/* For compile-db.c: FIELD comes from the database's -D. */
struct job { int FIELD; int id; };
