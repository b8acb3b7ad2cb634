# varbench_add_benchmark(NAME SOURCES file...): a benchmark program from C, C++ or CUDA sources
# whose families end in VB_MAIN(...) (or call vb_main): `NAME list`, `NAME run [varbench run's
# options]`. Linked with varbench::varbench; its run path finds libcupti where the toolkit keeps
# it. A project of C alone links too (the C++ runtime is added); .cu sources need CUDA enabled. Works the same after find_package(varbench) and inside varbench's own tree.
function(varbench_add_benchmark name)
  cmake_parse_arguments(PARSE_ARGV 1 VB "" "" "SOURCES")
  if(NOT VB_SOURCES)
    message(FATAL_ERROR "varbench_add_benchmark(${name}): no SOURCES given")
  endif()
  if(VB_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "varbench_add_benchmark(${name}): unknown arguments ${VB_UNPARSED_ARGUMENTS}")
  endif()
  add_executable(${name} ${VB_SOURCES})
  target_link_libraries(${name} PRIVATE varbench::varbench)
  # the library holds C++ and CUDA objects: a C-only project's C linker needs the C++ runtime
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CXX" IN_LIST languages AND NOT "CUDA" IN_LIST languages)
    target_link_libraries(${name} PRIVATE stdc++)
  endif()
  # where this toolkit keeps libcupti, and where a toolkit of the usual layout at the same root
  # does (lib64, extras/CUPTI/lib64): the GPU machine's may be either. Inside varbench's tree
  # (add_subdirectory) its own CMakeLists.txt says where (CUDA::cupti is its directory's target).
  get_property(rpath GLOBAL PROPERTY VARBENCH_RPATH)
  if(NOT rpath)
    get_target_property(cupti CUDA::cupti LOCATION)
    get_filename_component(cupti_dir "${cupti}" DIRECTORY)
    set(rpath "${CUDAToolkit_LIBRARY_DIR};${cupti_dir};${CUDAToolkit_LIBRARY_ROOT}/lib64;"
      "${CUDAToolkit_LIBRARY_ROOT}/extras/CUPTI/lib64")
    string(REPLACE ";;" ";" rpath "${rpath}")
  endif()
  set_target_properties(${name} PROPERTIES BUILD_RPATH "${rpath}" INSTALL_RPATH "${rpath}")
endfunction()
