# ASan + UBSan for every target when HCLVM_SANITIZE is on.
if(HCLVM_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

# ThreadSanitizer for every target when HCLVM_TSAN is on. It cannot be
# combined with ASan, which instruments memory in an incompatible way.
if(HCLVM_TSAN)
  if(HCLVM_SANITIZE)
    message(FATAL_ERROR "HCLVM_TSAN and HCLVM_SANITIZE cannot both be on")
  endif()
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
endif()
