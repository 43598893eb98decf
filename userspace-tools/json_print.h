/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One output path for human text and JSON, in the manner of iproute2's
 * print_*() helpers: each call names a JSON key and a printf format for the
 * text, so one sequence of calls prints either form.  In JSON mode values go
 * to a small streaming writer that escapes every string; in text mode the
 * format is printed and the key ignored.  PRINT_FP limits a call to the
 * text, PRINT_JSON to the JSON.
 *
 * Output comes in records (a command's result, an error): print_begin()
 * picks the stream of the next record, print_end() ends it (a JSON record
 * is one line).
 */
#ifndef JSON_PRINT_H
#define JSON_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum output_type {
	PRINT_FP = 1,
	PRINT_JSON = 2,
	PRINT_ANY = PRINT_FP | PRINT_JSON,
};

void json_print_mode(bool json);

void print_begin(FILE *out);
void print_end(void);

/* Containers exist in JSON only; key is NULL inside arrays and at the top. */
void open_json_object(const char *key);
void close_json_object(void);
void open_json_array(const char *key);
void close_json_array(void);

void print_string(enum output_type type, const char *key, const char *fmt,
		  const char *value);
void print_uint(enum output_type type, const char *key, const char *fmt,
		unsigned int value);
void print_int(enum output_type type, const char *key, const char *fmt,
	       int value);
void print_u64(enum output_type type, const char *key, const char *fmt,
	       uint64_t value);
void print_s64(enum output_type type, const char *key, const char *fmt,
	       int64_t value);
/*
 * A number as its decimal text ("1234.567890"), printed as it is: no
 * conversion to round it.  JSON gets a string instead when the text is
 * not a JSON number.
 */
void print_number_text(enum output_type type, const char *key,
		       const char *fmt, const char *text);
/* JSON true/false; the text gets "yes" or "no" through fmt's %s. */
void print_bool(enum output_type type, const char *key, const char *fmt,
		bool value);
/* JSON only: bytes as a string of hex digits. */
void print_hex_bytes(const char *key, const uint8_t *buf, size_t len);
/* Text only, printf-style. */
void print_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
