/* segscan - what libsegscan exports.
 *
 * The library is built with -fvisibility=hidden: a function is exported
 * (is in libsegscan.so's dynamic symbol table) only when its declaration in
 * a public header carries SS_API. Everything else, the helpers its rooms
 * share among themselves included, stays inside the library.
 */
#ifndef SEGSCAN_EXPORT_H
#define SEGSCAN_EXPORT_H

#if defined(__GNUC__)
#define SS_API __attribute__((visibility("default")))
#else
#define SS_API
#endif

#endif
