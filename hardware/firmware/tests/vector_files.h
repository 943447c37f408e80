/* The test runners' shared step: the vector files (*.txt) of a folder, sorted by name, so every
 * run reads them in the same order. Header-only: each runner is one translation unit. */
#ifndef HB_TESTS_VECTOR_FILES_H
#define HB_TESTS_VECTOR_FILES_H

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#define VECTOR_NAME_MAX 256

static int vector_compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Fills names[0..max) with the .txt file names in `folder` and sorted[] with pointers to them,
 * in name order. Returns the count, or -1 if the folder cannot be opened. */
static int vector_files(const char *folder, char (*names)[VECTOR_NAME_MAX], char **sorted, int max)
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
    qsort(sorted, (size_t)count, sizeof sorted[0], vector_compare_names);
    return count;
}

#endif
