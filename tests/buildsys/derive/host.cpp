// A host source of the float library: the derived one compiles it as it is.
#ifdef FROM_TARGET_OPTIONS
#error "a CUDA-only compile option reached a C++ source"
#endif
int select_host_part() { return 1; }
