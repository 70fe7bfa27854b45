/* The version macros of lightcycles.h against the library's runtime version
 * functions: a program compiled with this header and linked (statically or
 * dynamically) with this library must see the same version on both sides. */
#include <lightcycles.h>

#include <stdio.h>
#include <string.h>

#define STR2(x) #x
#define STR(x) STR2(x)

/* The macros agree with each other, at compile time. */
#if LC_VERSION_NUMBER != LC_VERSION_MAJOR * 1000000 + LC_VERSION_MINOR * 1000 + LC_VERSION_PATCH
#error "LC_VERSION_NUMBER does not match LC_VERSION_MAJOR/MINOR/PATCH"
#endif

int main(void) {
    int failures = 0;
    const char *runtime = lc_version();
    const char *parts = STR(LC_VERSION_MAJOR) "." STR(LC_VERSION_MINOR) "." STR(LC_VERSION_PATCH);
    if (runtime == NULL || strcmp(runtime, LC_VERSION) != 0) {
        fprintf(stderr, "lc_version() = %s, LC_VERSION = %s\n", runtime ? runtime : "(null)", LC_VERSION);
        failures++;
    }
    /* LC_VERSION is MAJOR.MINOR.PATCH, perhaps followed by a pre-release tag. */
    if (strncmp(LC_VERSION, parts, strlen(parts)) != 0) {
        fprintf(stderr, "LC_VERSION = %s does not start with %s\n", LC_VERSION, parts);
        failures++;
    }
    if (lc_version_number() != LC_VERSION_NUMBER) {
        fprintf(stderr, "lc_version_number() = %u, LC_VERSION_NUMBER = %u\n", lc_version_number(),
                (unsigned)LC_VERSION_NUMBER);
        failures++;
    }
    if (lc_abi_version() != LC_ABI_VERSION) {
        fprintf(stderr, "lc_abi_version() = %u, LC_ABI_VERSION = %u\n", lc_abi_version(), (unsigned)LC_ABI_VERSION);
        failures++;
    }
    if (failures != 0) return 1;
    printf("version %s abi %u: header and library agree\n", runtime, lc_abi_version());
    return 0;
}
