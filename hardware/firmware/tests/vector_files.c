#include "vector_files.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int vector_files(const char *folder, char (*names)[VECTOR_NAME_MAX], char **sorted, int max)
{
    int count = 0;
    struct dirent *entry;
    DIR *dir = opendir(folder);
    if (dir == NULL) {
        return -1;
    }
    while ((entry = readdir(dir)) != NULL && count < max) {
        size_t n = strlen(entry->d_name);
        if (n > 4 && n < VECTOR_NAME_MAX && strcmp(entry->d_name + n - 4, ".txt") == 0) {
            memcpy(names[count], entry->d_name, n + 1);
            sorted[count] = names[count];
            count++;
        }
    }
    closedir(dir);
    qsort(sorted, (size_t)count, sizeof sorted[0], compare_names);
    return count;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int line_end(char c)
{
    return c == '\0' || c == '\n' || c == '\r';
}

long vector_hex(const char *text, uint8_t *out, size_t capacity)
{
    size_t n = 0;
    while (*text == ' ') text++;
    if (text[0] == '-' && line_end(text[1])) return 0;
    while (!line_end(text[0])) {
        int hi = hex_digit(text[0]);
        int lo = hi < 0 ? -1 : hex_digit(text[1]);
        if (lo < 0 || n >= capacity) return -1;
        out[n++] = (uint8_t)(hi * 16 + lo);
        text += 2;
    }
    return (long)n;
}

int vector_number(const char *line, const char *key, unsigned long *out)
{
    char pattern[64];
    const char *at;
    snprintf(pattern, sizeof pattern, " %s=", key);
    at = strstr(line, pattern);
    if (at == NULL) return 0;
    *out = strtoul(at + strlen(pattern), NULL, 10);
    return 1;
}
