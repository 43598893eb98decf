// SPDX-License-Identifier: GPL-2.0
/*
 * json_check [COUNT]: standard input must be a sequence of JSON objects or
 * arrays (dxgpmoctl --json prints one per line), as json-c's strict parser
 * reads them, with UTF-8 checked; with COUNT, exactly that many, else at
 * least one.  Prints how many it read; exits 1 on anything else, saying
 * where.  A parser of its own, so the tests do not trust the writer they
 * test.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

/*
 * json-c, even when strict, takes 'single-quoted' strings, NaN and raw
 * control characters in strings; JSON does not.  The offset of the first
 * such byte, or -1.
 */
static long lexical_error(const char *s)
{
	static const char *const words[] = { "true", "false", "null" };
	const char *p = s;
	int in_string = 0;
	size_t i;

	while (*p) {
		if (in_string) {
			if ((unsigned char)*p < 0x20)
				return p - s;
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				in_string = 0;
			p++;
			continue;
		}
		if (*p == '"') {
			in_string = 1;
			p++;
			continue;
		}
		if (strchr(" \t\n\r{}[],:0123456789+-.eE", *p)) {
			p++;
			continue;
		}
		for (i = 0; i < 3; i++)
			if (!strncmp(p, words[i], strlen(words[i])))
				break;
		if (i == 3)
			return p - s;
		p += strlen(words[i]);
	}
	return -1;
}

int main(int argc, char **argv)
{
	long want = argc > 1 ? strtol(argv[1], NULL, 0) : -1;
	size_t len = 0, cap = 4096, pos = 0, n;
	char *buf = malloc(cap), *grown;
	long count = 0;

	if (!buf)
		return 2;
	while ((n = fread(buf + len, 1, cap - len - 1, stdin)) > 0) {
		len += n;
		if (len + 1 == cap) {
			cap *= 2;
			grown = realloc(buf, cap);
			if (!grown) {
				free(buf);
				return 2;
			}
			buf = grown;
		}
	}
	buf[len] = 0;
	if (strlen(buf) != len) {
		fprintf(stderr, "json_check: a NUL byte in the input\n");
		return 1;
	}
	if (lexical_error(buf) >= 0) {
		fprintf(stderr, "json_check: byte %ld: not JSON: %.40s\n",
			lexical_error(buf), buf + lexical_error(buf));
		return 1;
	}
	for (;;) {
		struct json_tokener *tok;
		struct json_object *obj;
		enum json_tokener_error err;

		while (pos < len && isspace((unsigned char)buf[pos]))
			pos++;
		if (pos == len)
			break;
		/* A top-level scalar would need the end of input to end. */
		if (buf[pos] != '{' && buf[pos] != '[') {
			fprintf(stderr, "json_check: byte %zu: not an object or array: %.40s\n",
				pos, buf + pos);
			return 1;
		}
		tok = json_tokener_new();
		json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
				       JSON_TOKENER_VALIDATE_UTF8 |
				       JSON_TOKENER_ALLOW_TRAILING_CHARS);
		obj = json_tokener_parse_ex(tok, buf + pos, len - pos);
		err = json_tokener_get_error(tok);
		if (!obj) {
			fprintf(stderr, "json_check: byte %zu: %s: %.60s\n",
				pos + json_tokener_get_parse_end(tok),
				err == json_tokener_continue ? "incomplete" :
				json_tokener_error_desc(err), buf + pos);
			return 1;
		}
		pos += json_tokener_get_parse_end(tok);
		json_object_put(obj);
		json_tokener_free(tok);
		count++;
	}
	printf("%ld\n", count);
	if (want >= 0 ? count != want : !count) {
		fprintf(stderr, "json_check: %ld JSON text(s), %s %ld\n", count,
			want >= 0 ? "expected" : "expected at least",
			want >= 0 ? want : 1);
		return 1;
	}
	return 0;
}
