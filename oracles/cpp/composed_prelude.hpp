// layoutcheck's runtime for the cute-cpp cases on swizzles, composed layouts, recast and tiling (oracles/cpp/composed.py): swizzles,
// composed layouts, tensors.  Precompiled once per toolchain.  Every answer line is
// "@@K TAG text": V values, T an integer or a tuple, L a layout or composed layout, P a
// (layout, offset) pair.  Written for layoutcheck.
#include <cute/tensor.hpp>
#include <cute/swizzle_layout.hpp>
#include <cute/atom/copy_atom.hpp>  // TiledCopy (tiled_copy_partition_S / _D)
#include <cstdio>
#include <type_traits>
#include <utility>

namespace lcv {

template <class T> struct is_c : std::false_type {};
template <auto v> struct is_c<cute::C<v>> : std::true_type {};
template <class T, T v> struct is_c<cute::integral_constant<T, v>> : std::true_type {};
template <class T> struct is_swizzle : std::false_type {};
template <int B, int M, int S> struct is_swizzle<cute::Swizzle<B, M, S>> : std::true_type {};
template <class T> struct is_mixed : std::false_type {};
template <uint32_t S, uint32_t F> struct is_mixed<cute::MixedBits<S, F>> : std::true_type {};

template <class T> void put(T const& x);

template <class T, size_t... I>
void put_tuple(T const& t, std::index_sequence<I...>) {
  std::putchar('(');
  ((I ? (void)std::putchar(',') : (void)0, put(cute::get<I>(t))), ...);
  std::putchar(')');
}

template <class T>
void put(T const& x) {
  if constexpr (is_c<T>::value) {
    std::printf("_%lld", static_cast<long long>(T::value));
  } else if constexpr (std::is_integral_v<T>) {
    std::printf("%lld", static_cast<long long>(x));
  } else if constexpr (is_mixed<T>::value) {
    std::printf("%lld", static_cast<long long>(uint32_t(x)));
  } else if constexpr (is_swizzle<T>::value) {
    std::printf("Sw<%d,%d,%d>", T::num_bits, T::num_base, T::num_shft);
  } else if constexpr (cute::is_composed_layout<T>::value) {
    put(x.layout_a());
    std::fputs(" o ", stdout);
    put(x.offset());
    std::fputs(" o ", stdout);
    put(x.layout_b());
  } else if constexpr (cute::is_layout<T>::value) {
    put(x.shape());
    std::putchar(':');
    put(x.stride());
  } else if constexpr (cute::is_tuple<T>::value) {
    put_tuple(x, std::make_index_sequence<cute::tuple_size<T>::value>{});
  } else {
    std::fputs("?", stdout);
  }
}

inline void begin(int k, char tag) { std::printf("@@%d %c ", k, tag); }
inline void end() { std::putchar('\n'); std::fflush(stdout); }

template <class X> void answer(int k, X const& x) {
  begin(k, cute::is_layout<X>::value ? 'L' : 'T');
  put(x);
  end();
}

template <class P> void pair(int k, P const& p) {
  begin(k, 'P');
  put(cute::get<0>(p));
  std::putchar('|');
  put(cute::get<1>(p));
  end();
}

template <class F> void values(int k, F const& f, long long n) {
  begin(k, 'V');
  for (long long i = 0; i < n; ++i) std::printf(" %lld", static_cast<long long>(f(i)));
  end();
}

template <class L> void layout_values(int k, L const& layout) {
  values(k, layout, static_cast<long long>(cute::size(layout)));
}

// A tensor op on a layout: the result tensor's layout and its offset from the base pointer.
inline int lc_base[1];
template <class Op, class L> void tensor_op(int k, Op const& op, L const& layout) {
  auto t = cute::make_tensor(cute::make_gmem_ptr(&lc_base[0]), layout);
  auto r = op(t);
  begin(k, 'P');
  put(r.layout());
  std::printf("|%lld", static_cast<long long>(cute::raw_pointer_cast(r.data()) - &lc_base[0]));
  end();
}

}  // namespace lcv
