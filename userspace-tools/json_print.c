// SPDX-License-Identifier: GPL-2.0
/*
 * The two forms of dxgpmoctl's output (see json_print.h), and the JSON
 * writer under them: compact, streaming, every string escaped.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "json_print.h"

#define JSON_MAX_DEPTH 8

static bool json_mode;
static FILE *out;
static unsigned int depth;
/* Per open container: has a value been written in it yet. */
static bool not_first[JSON_MAX_DEPTH + 1];

void json_print_mode(bool json)
{
	json_mode = json;
}

void print_begin(FILE *stream)
{
	out = stream;
	depth = 0;
	not_first[0] = false;
}

void print_end(void)
{
	if (!out)
		return;
	if (json_mode && not_first[0])
		fputc('\n', out);
	fflush(out);
	out = NULL;
}

/* Length of the valid UTF-8 sequence at s, or 0. */
static size_t utf8_len(const unsigned char *s)
{
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	/* no overlong forms, no surrogates, nothing above U+10FFFF */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	for (i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/* A JSON string; bytes that are not UTF-8 become U+FFFD. */
static void json_write_string(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len;

	fputc('"', out);
	while (*s) {
		if (*s == '"' || *s == '\\') {
			fprintf(out, "\\%c", *s++);
			continue;
		}
		if (*s == '\n' || *s == '\t') {
			fputs(*s++ == '\n' ? "\\n" : "\\t", out);
			continue;
		}
		if (*s < 0x20 || *s == 0x7f) {
			fprintf(out, "\\u%04x", *s++);
			continue;
		}
		len = utf8_len(s);
		if (!len) {
			fputs("\\ufffd", out);
			s++;
			continue;
		}
		fwrite(s, 1, len, out);
		s += len;
	}
	fputc('"', out);
}

/* The separator and key in front of a value at the current depth. */
static void json_member(const char *key)
{
	if (not_first[depth])
		fputc(',', out);
	not_first[depth] = true;
	if (key && depth) {
		json_write_string(key);
		fputc(':', out);
	}
}

static void json_open(const char *key, char bracket)
{
	if (!json_mode || !out)
		return;
	json_member(key);
	fputc(bracket, out);
	if (depth < JSON_MAX_DEPTH)
		depth++;
	not_first[depth] = false;
}

static void json_close(char bracket)
{
	if (!json_mode || !out)
		return;
	fputc(bracket, out);
	if (depth)
		depth--;
}

void open_json_object(const char *key)
{
	json_open(key, '{');
}

void close_json_object(void)
{
	json_close('}');
}

void open_json_array(const char *key)
{
	json_open(key, '[');
}

void close_json_array(void)
{
	json_close(']');
}

/* Whether this call prints in the current mode; in JSON, starts the member. */
static bool printing(enum output_type type, const char *key)
{
	if (!out)
		return false;
	if (json_mode) {
		if (!(type & PRINT_JSON))
			return false;
		json_member(key);
		return true;
	}
	return (type & PRINT_FP) && out;
}

void print_string(enum output_type type, const char *key, const char *fmt,
		  const char *value)
{
	if (!printing(type, key))
		return;
	if (json_mode)
		json_write_string(value);
	else
		fprintf(out, fmt, value);
}

/* A number: json_fmt in JSON, fmt in the text, with the one argument. */
static void print_number(enum output_type type, const char *key,
			 const char *json_fmt, const char *fmt, ...)
{
	va_list ap;

	if (!printing(type, key))
		return;
	va_start(ap, fmt);
	vfprintf(out, json_mode ? json_fmt : fmt, ap);
	va_end(ap);
}

void print_uint(enum output_type type, const char *key, const char *fmt,
		unsigned int value)
{
	print_number(type, key, "%u", fmt, value);
}

void print_int(enum output_type type, const char *key, const char *fmt,
	       int value)
{
	print_number(type, key, "%d", fmt, value);
}

void print_u64(enum output_type type, const char *key, const char *fmt,
	       uint64_t value)
{
	print_number(type, key, "%" PRIu64, fmt, value);
}

void print_s64(enum output_type type, const char *key, const char *fmt,
	       int64_t value)
{
	print_number(type, key, "%" PRId64, fmt, value);
}

/* -?DIGITS(.DIGITS)?, as far as it goes: a JSON number without exponent. */
static bool json_number(const char *s)
{
	size_t n;

	s += *s == '-';
	n = strspn(s, "0123456789");
	if (!n || (n > 1 && *s == '0'))
		return false;
	s += n;
	if (*s == '.') {
		n = strspn(++s, "0123456789");
		if (!n)
			return false;
		s += n;
	}
	return !*s;
}

void print_number_text(enum output_type type, const char *key,
		       const char *fmt, const char *text)
{
	if (!printing(type, key))
		return;
	if (!json_mode)
		fprintf(out, fmt, text);
	else if (json_number(text))
		fputs(text, out);
	else
		json_write_string(text);
}

void print_bool(enum output_type type, const char *key, const char *fmt,
		bool value)
{
	if (!printing(type, key))
		return;
	if (json_mode)
		fputs(value ? "true" : "false", out);
	else
		fprintf(out, fmt, value ? "yes" : "no");
}

void print_hex_bytes(const char *key, const uint8_t *buf, size_t len)
{
	size_t i;

	if (!printing(PRINT_JSON, key))
		return;
	fputc('"', out);
	for (i = 0; i < len; i++)
		fprintf(out, "%02x", buf[i]);
	fputc('"', out);
}

void print_text(const char *fmt, ...)
{
	va_list ap;

	if (json_mode || !out)
		return;
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
}
