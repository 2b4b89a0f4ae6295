/* segscan - checksums.
 *
 * CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) is the checksum of
 * v2 record batches and producer snapshots; CRC-32 (IEEE) that of v0/v1
 * messages. Every function takes the running CRC of the bytes before `buf`
 * (0 to start) and returns the CRC including `buf`; the ~ pre/post conditioning
 * is done inside, so ss_crc32c(ss_crc32c(0, a, n), b, m) == ss_crc32c(0, a||b, n+m)
 * and ss_crc32c(0, "123456789", 9) == 0xE3069283.
 *
 * Four implementations of CRC-32C:
 *  - ss_crc32c_sw: slicing-by-8, eight 256-entry tables (const, generated
 *    offline: table[0][n] is the CRC of byte n, table[k][n] the CRC of byte n
 *    followed by k zero bytes; see the comment above the tables);
 *  - x86-64 with SSE4.2: the crc32 instruction, 8 bytes at a time;
 *  - aarch64 with the CRC extension: crc32cx, 8 bytes at a time;
 *  - x86-64 with AVX-512 and VPCLMULQDQ, from 256 bytes: folding with
 *    carry-less multiplications, 256 bytes a step (crc32c_fold below): 2.5
 *    times the crc32 instruction's speed on the benchmark machine (47 against
 *    18-20 GB/s over 4 KiB batches in the cache).
 * The instruction has a latency of about 3 cycles but a throughput of one
 * per cycle, so a long buffer is cut into three lanes that are checksummed
 * at the same time and then combined (crc_shift below). ss_crc32c picks the
 * hardware path at run time; nothing is cached, so the library keeps no state.
 */
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <zlib.h>

#include "base/crc.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SS_CRC_X86 1
#include <immintrin.h> /* _mm512_clmulepi64_epi128 (AVX-512, VPCLMULQDQ) */
#include <nmmintrin.h> /* _mm_crc32_* (SSE4.2) */
#include <wmmintrin.h> /* _mm_clmulepi64_si128 (PCLMUL) */
#define SS_HW_TARGET __attribute__((target("sse4.2")))
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
#define SS_CRC_ARM 1
#if defined(__ARM_FEATURE_CRC32)
/* The compiler targets a CPU with the CRC extension: no run-time check. */
#include <arm_acle.h>
#define SS_HW_TARGET
#define SS_ARM_CRC_ALWAYS 1
#define ss_arm_crc32cb(c, b) __crc32cb((c), (b))
#define ss_arm_crc32cd(c, v) __crc32cd((c), (v))
#elif defined(__linux__) && defined(__clang__)
/* clang's arm_acle.h hides the CRC intrinsics unless the whole unit targets
 * +crc, so use the builtins in functions compiled for +crc. */
#include <sys/auxv.h>
#define SS_HW_TARGET __attribute__((target("crc")))
#define ss_arm_crc32cb(c, b) __builtin_arm_crc32cb((c), (b))
#define ss_arm_crc32cd(c, v) __builtin_arm_crc32cd((c), (v))
#elif defined(__linux__)
/* GCC's arm_acle.h declares the CRC intrinsics under a target pragma, usable
 * from functions compiled with target("+crc"). */
#include <arm_acle.h>
#include <sys/auxv.h>
#define SS_HW_TARGET __attribute__((target("+crc")))
#define ss_arm_crc32cb(c, b) __crc32cb((c), (b))
#define ss_arm_crc32cd(c, v) __crc32cd((c), (v))
#else
#undef SS_CRC_ARM /* no way to ask the CPU: tables only */
#endif
#endif

#if defined(SS_CRC_X86) || defined(SS_CRC_ARM)
#define SS_CRC_HW 1
#endif

/* ---- portable slicing-by-8 ------------------------------------------- */

/* Generated with (Python):
 *   P = 0x82F63B78
 *   t[0][n] = n, then 8 times: c = (c >> 1) ^ (P if c & 1 else 0)
 *   t[k][n] = (t[k-1][n] >> 8) ^ t[0][t[k-1][n] & 0xff]     for k = 1..7
 * tests/unit/test_crc.c checks the tables against a bit-at-a-time CRC. */
/* clang-format off */
static const uint32_t crc32c_table[8][256] = {
    {
        0x00000000u, 0xf26b8303u, 0xe13b70f7u, 0x1350f3f4u, 0xc79a971fu, 0x35f1141cu,
        0x26a1e7e8u, 0xd4ca64ebu, 0x8ad958cfu, 0x78b2dbccu, 0x6be22838u, 0x9989ab3bu,
        0x4d43cfd0u, 0xbf284cd3u, 0xac78bf27u, 0x5e133c24u, 0x105ec76fu, 0xe235446cu,
        0xf165b798u, 0x030e349bu, 0xd7c45070u, 0x25afd373u, 0x36ff2087u, 0xc494a384u,
        0x9a879fa0u, 0x68ec1ca3u, 0x7bbcef57u, 0x89d76c54u, 0x5d1d08bfu, 0xaf768bbcu,
        0xbc267848u, 0x4e4dfb4bu, 0x20bd8edeu, 0xd2d60dddu, 0xc186fe29u, 0x33ed7d2au,
        0xe72719c1u, 0x154c9ac2u, 0x061c6936u, 0xf477ea35u, 0xaa64d611u, 0x580f5512u,
        0x4b5fa6e6u, 0xb93425e5u, 0x6dfe410eu, 0x9f95c20du, 0x8cc531f9u, 0x7eaeb2fau,
        0x30e349b1u, 0xc288cab2u, 0xd1d83946u, 0x23b3ba45u, 0xf779deaeu, 0x05125dadu,
        0x1642ae59u, 0xe4292d5au, 0xba3a117eu, 0x4851927du, 0x5b016189u, 0xa96ae28au,
        0x7da08661u, 0x8fcb0562u, 0x9c9bf696u, 0x6ef07595u, 0x417b1dbcu, 0xb3109ebfu,
        0xa0406d4bu, 0x522bee48u, 0x86e18aa3u, 0x748a09a0u, 0x67dafa54u, 0x95b17957u,
        0xcba24573u, 0x39c9c670u, 0x2a993584u, 0xd8f2b687u, 0x0c38d26cu, 0xfe53516fu,
        0xed03a29bu, 0x1f682198u, 0x5125dad3u, 0xa34e59d0u, 0xb01eaa24u, 0x42752927u,
        0x96bf4dccu, 0x64d4cecfu, 0x77843d3bu, 0x85efbe38u, 0xdbfc821cu, 0x2997011fu,
        0x3ac7f2ebu, 0xc8ac71e8u, 0x1c661503u, 0xee0d9600u, 0xfd5d65f4u, 0x0f36e6f7u,
        0x61c69362u, 0x93ad1061u, 0x80fde395u, 0x72966096u, 0xa65c047du, 0x5437877eu,
        0x4767748au, 0xb50cf789u, 0xeb1fcbadu, 0x197448aeu, 0x0a24bb5au, 0xf84f3859u,
        0x2c855cb2u, 0xdeeedfb1u, 0xcdbe2c45u, 0x3fd5af46u, 0x7198540du, 0x83f3d70eu,
        0x90a324fau, 0x62c8a7f9u, 0xb602c312u, 0x44694011u, 0x5739b3e5u, 0xa55230e6u,
        0xfb410cc2u, 0x092a8fc1u, 0x1a7a7c35u, 0xe811ff36u, 0x3cdb9bddu, 0xceb018deu,
        0xdde0eb2au, 0x2f8b6829u, 0x82f63b78u, 0x709db87bu, 0x63cd4b8fu, 0x91a6c88cu,
        0x456cac67u, 0xb7072f64u, 0xa457dc90u, 0x563c5f93u, 0x082f63b7u, 0xfa44e0b4u,
        0xe9141340u, 0x1b7f9043u, 0xcfb5f4a8u, 0x3dde77abu, 0x2e8e845fu, 0xdce5075cu,
        0x92a8fc17u, 0x60c37f14u, 0x73938ce0u, 0x81f80fe3u, 0x55326b08u, 0xa759e80bu,
        0xb4091bffu, 0x466298fcu, 0x1871a4d8u, 0xea1a27dbu, 0xf94ad42fu, 0x0b21572cu,
        0xdfeb33c7u, 0x2d80b0c4u, 0x3ed04330u, 0xccbbc033u, 0xa24bb5a6u, 0x502036a5u,
        0x4370c551u, 0xb11b4652u, 0x65d122b9u, 0x97baa1bau, 0x84ea524eu, 0x7681d14du,
        0x2892ed69u, 0xdaf96e6au, 0xc9a99d9eu, 0x3bc21e9du, 0xef087a76u, 0x1d63f975u,
        0x0e330a81u, 0xfc588982u, 0xb21572c9u, 0x407ef1cau, 0x532e023eu, 0xa145813du,
        0x758fe5d6u, 0x87e466d5u, 0x94b49521u, 0x66df1622u, 0x38cc2a06u, 0xcaa7a905u,
        0xd9f75af1u, 0x2b9cd9f2u, 0xff56bd19u, 0x0d3d3e1au, 0x1e6dcdeeu, 0xec064eedu,
        0xc38d26c4u, 0x31e6a5c7u, 0x22b65633u, 0xd0ddd530u, 0x0417b1dbu, 0xf67c32d8u,
        0xe52cc12cu, 0x1747422fu, 0x49547e0bu, 0xbb3ffd08u, 0xa86f0efcu, 0x5a048dffu,
        0x8ecee914u, 0x7ca56a17u, 0x6ff599e3u, 0x9d9e1ae0u, 0xd3d3e1abu, 0x21b862a8u,
        0x32e8915cu, 0xc083125fu, 0x144976b4u, 0xe622f5b7u, 0xf5720643u, 0x07198540u,
        0x590ab964u, 0xab613a67u, 0xb831c993u, 0x4a5a4a90u, 0x9e902e7bu, 0x6cfbad78u,
        0x7fab5e8cu, 0x8dc0dd8fu, 0xe330a81au, 0x115b2b19u, 0x020bd8edu, 0xf0605beeu,
        0x24aa3f05u, 0xd6c1bc06u, 0xc5914ff2u, 0x37faccf1u, 0x69e9f0d5u, 0x9b8273d6u,
        0x88d28022u, 0x7ab90321u, 0xae7367cau, 0x5c18e4c9u, 0x4f48173du, 0xbd23943eu,
        0xf36e6f75u, 0x0105ec76u, 0x12551f82u, 0xe03e9c81u, 0x34f4f86au, 0xc69f7b69u,
        0xd5cf889du, 0x27a40b9eu, 0x79b737bau, 0x8bdcb4b9u, 0x988c474du, 0x6ae7c44eu,
        0xbe2da0a5u, 0x4c4623a6u, 0x5f16d052u, 0xad7d5351u,
    },
    {
        0x00000000u, 0x13a29877u, 0x274530eeu, 0x34e7a899u, 0x4e8a61dcu, 0x5d28f9abu,
        0x69cf5132u, 0x7a6dc945u, 0x9d14c3b8u, 0x8eb65bcfu, 0xba51f356u, 0xa9f36b21u,
        0xd39ea264u, 0xc03c3a13u, 0xf4db928au, 0xe7790afdu, 0x3fc5f181u, 0x2c6769f6u,
        0x1880c16fu, 0x0b225918u, 0x714f905du, 0x62ed082au, 0x560aa0b3u, 0x45a838c4u,
        0xa2d13239u, 0xb173aa4eu, 0x859402d7u, 0x96369aa0u, 0xec5b53e5u, 0xfff9cb92u,
        0xcb1e630bu, 0xd8bcfb7cu, 0x7f8be302u, 0x6c297b75u, 0x58ced3ecu, 0x4b6c4b9bu,
        0x310182deu, 0x22a31aa9u, 0x1644b230u, 0x05e62a47u, 0xe29f20bau, 0xf13db8cdu,
        0xc5da1054u, 0xd6788823u, 0xac154166u, 0xbfb7d911u, 0x8b507188u, 0x98f2e9ffu,
        0x404e1283u, 0x53ec8af4u, 0x670b226du, 0x74a9ba1au, 0x0ec4735fu, 0x1d66eb28u,
        0x298143b1u, 0x3a23dbc6u, 0xdd5ad13bu, 0xcef8494cu, 0xfa1fe1d5u, 0xe9bd79a2u,
        0x93d0b0e7u, 0x80722890u, 0xb4958009u, 0xa737187eu, 0xff17c604u, 0xecb55e73u,
        0xd852f6eau, 0xcbf06e9du, 0xb19da7d8u, 0xa23f3fafu, 0x96d89736u, 0x857a0f41u,
        0x620305bcu, 0x71a19dcbu, 0x45463552u, 0x56e4ad25u, 0x2c896460u, 0x3f2bfc17u,
        0x0bcc548eu, 0x186eccf9u, 0xc0d23785u, 0xd370aff2u, 0xe797076bu, 0xf4359f1cu,
        0x8e585659u, 0x9dface2eu, 0xa91d66b7u, 0xbabffec0u, 0x5dc6f43du, 0x4e646c4au,
        0x7a83c4d3u, 0x69215ca4u, 0x134c95e1u, 0x00ee0d96u, 0x3409a50fu, 0x27ab3d78u,
        0x809c2506u, 0x933ebd71u, 0xa7d915e8u, 0xb47b8d9fu, 0xce1644dau, 0xddb4dcadu,
        0xe9537434u, 0xfaf1ec43u, 0x1d88e6beu, 0x0e2a7ec9u, 0x3acdd650u, 0x296f4e27u,
        0x53028762u, 0x40a01f15u, 0x7447b78cu, 0x67e52ffbu, 0xbf59d487u, 0xacfb4cf0u,
        0x981ce469u, 0x8bbe7c1eu, 0xf1d3b55bu, 0xe2712d2cu, 0xd69685b5u, 0xc5341dc2u,
        0x224d173fu, 0x31ef8f48u, 0x050827d1u, 0x16aabfa6u, 0x6cc776e3u, 0x7f65ee94u,
        0x4b82460du, 0x5820de7au, 0xfbc3faf9u, 0xe861628eu, 0xdc86ca17u, 0xcf245260u,
        0xb5499b25u, 0xa6eb0352u, 0x920cabcbu, 0x81ae33bcu, 0x66d73941u, 0x7575a136u,
        0x419209afu, 0x523091d8u, 0x285d589du, 0x3bffc0eau, 0x0f186873u, 0x1cbaf004u,
        0xc4060b78u, 0xd7a4930fu, 0xe3433b96u, 0xf0e1a3e1u, 0x8a8c6aa4u, 0x992ef2d3u,
        0xadc95a4au, 0xbe6bc23du, 0x5912c8c0u, 0x4ab050b7u, 0x7e57f82eu, 0x6df56059u,
        0x1798a91cu, 0x043a316bu, 0x30dd99f2u, 0x237f0185u, 0x844819fbu, 0x97ea818cu,
        0xa30d2915u, 0xb0afb162u, 0xcac27827u, 0xd960e050u, 0xed8748c9u, 0xfe25d0beu,
        0x195cda43u, 0x0afe4234u, 0x3e19eaadu, 0x2dbb72dau, 0x57d6bb9fu, 0x447423e8u,
        0x70938b71u, 0x63311306u, 0xbb8de87au, 0xa82f700du, 0x9cc8d894u, 0x8f6a40e3u,
        0xf50789a6u, 0xe6a511d1u, 0xd242b948u, 0xc1e0213fu, 0x26992bc2u, 0x353bb3b5u,
        0x01dc1b2cu, 0x127e835bu, 0x68134a1eu, 0x7bb1d269u, 0x4f567af0u, 0x5cf4e287u,
        0x04d43cfdu, 0x1776a48au, 0x23910c13u, 0x30339464u, 0x4a5e5d21u, 0x59fcc556u,
        0x6d1b6dcfu, 0x7eb9f5b8u, 0x99c0ff45u, 0x8a626732u, 0xbe85cfabu, 0xad2757dcu,
        0xd74a9e99u, 0xc4e806eeu, 0xf00fae77u, 0xe3ad3600u, 0x3b11cd7cu, 0x28b3550bu,
        0x1c54fd92u, 0x0ff665e5u, 0x759baca0u, 0x663934d7u, 0x52de9c4eu, 0x417c0439u,
        0xa6050ec4u, 0xb5a796b3u, 0x81403e2au, 0x92e2a65du, 0xe88f6f18u, 0xfb2df76fu,
        0xcfca5ff6u, 0xdc68c781u, 0x7b5fdfffu, 0x68fd4788u, 0x5c1aef11u, 0x4fb87766u,
        0x35d5be23u, 0x26772654u, 0x12908ecdu, 0x013216bau, 0xe64b1c47u, 0xf5e98430u,
        0xc10e2ca9u, 0xd2acb4deu, 0xa8c17d9bu, 0xbb63e5ecu, 0x8f844d75u, 0x9c26d502u,
        0x449a2e7eu, 0x5738b609u, 0x63df1e90u, 0x707d86e7u, 0x0a104fa2u, 0x19b2d7d5u,
        0x2d557f4cu, 0x3ef7e73bu, 0xd98eedc6u, 0xca2c75b1u, 0xfecbdd28u, 0xed69455fu,
        0x97048c1au, 0x84a6146du, 0xb041bcf4u, 0xa3e32483u,
    },
    {
        0x00000000u, 0xa541927eu, 0x4f6f520du, 0xea2ec073u, 0x9edea41au, 0x3b9f3664u,
        0xd1b1f617u, 0x74f06469u, 0x38513ec5u, 0x9d10acbbu, 0x773e6cc8u, 0xd27ffeb6u,
        0xa68f9adfu, 0x03ce08a1u, 0xe9e0c8d2u, 0x4ca15aacu, 0x70a27d8au, 0xd5e3eff4u,
        0x3fcd2f87u, 0x9a8cbdf9u, 0xee7cd990u, 0x4b3d4beeu, 0xa1138b9du, 0x045219e3u,
        0x48f3434fu, 0xedb2d131u, 0x079c1142u, 0xa2dd833cu, 0xd62de755u, 0x736c752bu,
        0x9942b558u, 0x3c032726u, 0xe144fb14u, 0x4405696au, 0xae2ba919u, 0x0b6a3b67u,
        0x7f9a5f0eu, 0xdadbcd70u, 0x30f50d03u, 0x95b49f7du, 0xd915c5d1u, 0x7c5457afu,
        0x967a97dcu, 0x333b05a2u, 0x47cb61cbu, 0xe28af3b5u, 0x08a433c6u, 0xade5a1b8u,
        0x91e6869eu, 0x34a714e0u, 0xde89d493u, 0x7bc846edu, 0x0f382284u, 0xaa79b0fau,
        0x40577089u, 0xe516e2f7u, 0xa9b7b85bu, 0x0cf62a25u, 0xe6d8ea56u, 0x43997828u,
        0x37691c41u, 0x92288e3fu, 0x78064e4cu, 0xdd47dc32u, 0xc76580d9u, 0x622412a7u,
        0x880ad2d4u, 0x2d4b40aau, 0x59bb24c3u, 0xfcfab6bdu, 0x16d476ceu, 0xb395e4b0u,
        0xff34be1cu, 0x5a752c62u, 0xb05bec11u, 0x151a7e6fu, 0x61ea1a06u, 0xc4ab8878u,
        0x2e85480bu, 0x8bc4da75u, 0xb7c7fd53u, 0x12866f2du, 0xf8a8af5eu, 0x5de93d20u,
        0x29195949u, 0x8c58cb37u, 0x66760b44u, 0xc337993au, 0x8f96c396u, 0x2ad751e8u,
        0xc0f9919bu, 0x65b803e5u, 0x1148678cu, 0xb409f5f2u, 0x5e273581u, 0xfb66a7ffu,
        0x26217bcdu, 0x8360e9b3u, 0x694e29c0u, 0xcc0fbbbeu, 0xb8ffdfd7u, 0x1dbe4da9u,
        0xf7908ddau, 0x52d11fa4u, 0x1e704508u, 0xbb31d776u, 0x511f1705u, 0xf45e857bu,
        0x80aee112u, 0x25ef736cu, 0xcfc1b31fu, 0x6a802161u, 0x56830647u, 0xf3c29439u,
        0x19ec544au, 0xbcadc634u, 0xc85da25du, 0x6d1c3023u, 0x8732f050u, 0x2273622eu,
        0x6ed23882u, 0xcb93aafcu, 0x21bd6a8fu, 0x84fcf8f1u, 0xf00c9c98u, 0x554d0ee6u,
        0xbf63ce95u, 0x1a225cebu, 0x8b277743u, 0x2e66e53du, 0xc448254eu, 0x6109b730u,
        0x15f9d359u, 0xb0b84127u, 0x5a968154u, 0xffd7132au, 0xb3764986u, 0x1637dbf8u,
        0xfc191b8bu, 0x595889f5u, 0x2da8ed9cu, 0x88e97fe2u, 0x62c7bf91u, 0xc7862defu,
        0xfb850ac9u, 0x5ec498b7u, 0xb4ea58c4u, 0x11abcabau, 0x655baed3u, 0xc01a3cadu,
        0x2a34fcdeu, 0x8f756ea0u, 0xc3d4340cu, 0x6695a672u, 0x8cbb6601u, 0x29faf47fu,
        0x5d0a9016u, 0xf84b0268u, 0x1265c21bu, 0xb7245065u, 0x6a638c57u, 0xcf221e29u,
        0x250cde5au, 0x804d4c24u, 0xf4bd284du, 0x51fcba33u, 0xbbd27a40u, 0x1e93e83eu,
        0x5232b292u, 0xf77320ecu, 0x1d5de09fu, 0xb81c72e1u, 0xccec1688u, 0x69ad84f6u,
        0x83834485u, 0x26c2d6fbu, 0x1ac1f1ddu, 0xbf8063a3u, 0x55aea3d0u, 0xf0ef31aeu,
        0x841f55c7u, 0x215ec7b9u, 0xcb7007cau, 0x6e3195b4u, 0x2290cf18u, 0x87d15d66u,
        0x6dff9d15u, 0xc8be0f6bu, 0xbc4e6b02u, 0x190ff97cu, 0xf321390fu, 0x5660ab71u,
        0x4c42f79au, 0xe90365e4u, 0x032da597u, 0xa66c37e9u, 0xd29c5380u, 0x77ddc1feu,
        0x9df3018du, 0x38b293f3u, 0x7413c95fu, 0xd1525b21u, 0x3b7c9b52u, 0x9e3d092cu,
        0xeacd6d45u, 0x4f8cff3bu, 0xa5a23f48u, 0x00e3ad36u, 0x3ce08a10u, 0x99a1186eu,
        0x738fd81du, 0xd6ce4a63u, 0xa23e2e0au, 0x077fbc74u, 0xed517c07u, 0x4810ee79u,
        0x04b1b4d5u, 0xa1f026abu, 0x4bdee6d8u, 0xee9f74a6u, 0x9a6f10cfu, 0x3f2e82b1u,
        0xd50042c2u, 0x7041d0bcu, 0xad060c8eu, 0x08479ef0u, 0xe2695e83u, 0x4728ccfdu,
        0x33d8a894u, 0x96993aeau, 0x7cb7fa99u, 0xd9f668e7u, 0x9557324bu, 0x3016a035u,
        0xda386046u, 0x7f79f238u, 0x0b899651u, 0xaec8042fu, 0x44e6c45cu, 0xe1a75622u,
        0xdda47104u, 0x78e5e37au, 0x92cb2309u, 0x378ab177u, 0x437ad51eu, 0xe63b4760u,
        0x0c158713u, 0xa954156du, 0xe5f54fc1u, 0x40b4ddbfu, 0xaa9a1dccu, 0x0fdb8fb2u,
        0x7b2bebdbu, 0xde6a79a5u, 0x3444b9d6u, 0x91052ba8u,
    },
    {
        0x00000000u, 0xdd45aab8u, 0xbf672381u, 0x62228939u, 0x7b2231f3u, 0xa6679b4bu,
        0xc4451272u, 0x1900b8cau, 0xf64463e6u, 0x2b01c95eu, 0x49234067u, 0x9466eadfu,
        0x8d665215u, 0x5023f8adu, 0x32017194u, 0xef44db2cu, 0xe964b13du, 0x34211b85u,
        0x560392bcu, 0x8b463804u, 0x924680ceu, 0x4f032a76u, 0x2d21a34fu, 0xf06409f7u,
        0x1f20d2dbu, 0xc2657863u, 0xa047f15au, 0x7d025be2u, 0x6402e328u, 0xb9474990u,
        0xdb65c0a9u, 0x06206a11u, 0xd725148bu, 0x0a60be33u, 0x6842370au, 0xb5079db2u,
        0xac072578u, 0x71428fc0u, 0x136006f9u, 0xce25ac41u, 0x2161776du, 0xfc24ddd5u,
        0x9e0654ecu, 0x4343fe54u, 0x5a43469eu, 0x8706ec26u, 0xe524651fu, 0x3861cfa7u,
        0x3e41a5b6u, 0xe3040f0eu, 0x81268637u, 0x5c632c8fu, 0x45639445u, 0x98263efdu,
        0xfa04b7c4u, 0x27411d7cu, 0xc805c650u, 0x15406ce8u, 0x7762e5d1u, 0xaa274f69u,
        0xb327f7a3u, 0x6e625d1bu, 0x0c40d422u, 0xd1057e9au, 0xaba65fe7u, 0x76e3f55fu,
        0x14c17c66u, 0xc984d6deu, 0xd0846e14u, 0x0dc1c4acu, 0x6fe34d95u, 0xb2a6e72du,
        0x5de23c01u, 0x80a796b9u, 0xe2851f80u, 0x3fc0b538u, 0x26c00df2u, 0xfb85a74au,
        0x99a72e73u, 0x44e284cbu, 0x42c2eedau, 0x9f874462u, 0xfda5cd5bu, 0x20e067e3u,
        0x39e0df29u, 0xe4a57591u, 0x8687fca8u, 0x5bc25610u, 0xb4868d3cu, 0x69c32784u,
        0x0be1aebdu, 0xd6a40405u, 0xcfa4bccfu, 0x12e11677u, 0x70c39f4eu, 0xad8635f6u,
        0x7c834b6cu, 0xa1c6e1d4u, 0xc3e468edu, 0x1ea1c255u, 0x07a17a9fu, 0xdae4d027u,
        0xb8c6591eu, 0x6583f3a6u, 0x8ac7288au, 0x57828232u, 0x35a00b0bu, 0xe8e5a1b3u,
        0xf1e51979u, 0x2ca0b3c1u, 0x4e823af8u, 0x93c79040u, 0x95e7fa51u, 0x48a250e9u,
        0x2a80d9d0u, 0xf7c57368u, 0xeec5cba2u, 0x3380611au, 0x51a2e823u, 0x8ce7429bu,
        0x63a399b7u, 0xbee6330fu, 0xdcc4ba36u, 0x0181108eu, 0x1881a844u, 0xc5c402fcu,
        0xa7e68bc5u, 0x7aa3217du, 0x52a0c93fu, 0x8fe56387u, 0xedc7eabeu, 0x30824006u,
        0x2982f8ccu, 0xf4c75274u, 0x96e5db4du, 0x4ba071f5u, 0xa4e4aad9u, 0x79a10061u,
        0x1b838958u, 0xc6c623e0u, 0xdfc69b2au, 0x02833192u, 0x60a1b8abu, 0xbde41213u,
        0xbbc47802u, 0x6681d2bau, 0x04a35b83u, 0xd9e6f13bu, 0xc0e649f1u, 0x1da3e349u,
        0x7f816a70u, 0xa2c4c0c8u, 0x4d801be4u, 0x90c5b15cu, 0xf2e73865u, 0x2fa292ddu,
        0x36a22a17u, 0xebe780afu, 0x89c50996u, 0x5480a32eu, 0x8585ddb4u, 0x58c0770cu,
        0x3ae2fe35u, 0xe7a7548du, 0xfea7ec47u, 0x23e246ffu, 0x41c0cfc6u, 0x9c85657eu,
        0x73c1be52u, 0xae8414eau, 0xcca69dd3u, 0x11e3376bu, 0x08e38fa1u, 0xd5a62519u,
        0xb784ac20u, 0x6ac10698u, 0x6ce16c89u, 0xb1a4c631u, 0xd3864f08u, 0x0ec3e5b0u,
        0x17c35d7au, 0xca86f7c2u, 0xa8a47efbu, 0x75e1d443u, 0x9aa50f6fu, 0x47e0a5d7u,
        0x25c22ceeu, 0xf8878656u, 0xe1873e9cu, 0x3cc29424u, 0x5ee01d1du, 0x83a5b7a5u,
        0xf90696d8u, 0x24433c60u, 0x4661b559u, 0x9b241fe1u, 0x8224a72bu, 0x5f610d93u,
        0x3d4384aau, 0xe0062e12u, 0x0f42f53eu, 0xd2075f86u, 0xb025d6bfu, 0x6d607c07u,
        0x7460c4cdu, 0xa9256e75u, 0xcb07e74cu, 0x16424df4u, 0x106227e5u, 0xcd278d5du,
        0xaf050464u, 0x7240aedcu, 0x6b401616u, 0xb605bcaeu, 0xd4273597u, 0x09629f2fu,
        0xe6264403u, 0x3b63eebbu, 0x59416782u, 0x8404cd3au, 0x9d0475f0u, 0x4041df48u,
        0x22635671u, 0xff26fcc9u, 0x2e238253u, 0xf36628ebu, 0x9144a1d2u, 0x4c010b6au,
        0x5501b3a0u, 0x88441918u, 0xea669021u, 0x37233a99u, 0xd867e1b5u, 0x05224b0du,
        0x6700c234u, 0xba45688cu, 0xa345d046u, 0x7e007afeu, 0x1c22f3c7u, 0xc167597fu,
        0xc747336eu, 0x1a0299d6u, 0x782010efu, 0xa565ba57u, 0xbc65029du, 0x6120a825u,
        0x0302211cu, 0xde478ba4u, 0x31035088u, 0xec46fa30u, 0x8e647309u, 0x5321d9b1u,
        0x4a21617bu, 0x9764cbc3u, 0xf54642fau, 0x2803e842u,
    },
    {
        0x00000000u, 0x38116facu, 0x7022df58u, 0x4833b0f4u, 0xe045beb0u, 0xd854d11cu,
        0x906761e8u, 0xa8760e44u, 0xc5670b91u, 0xfd76643du, 0xb545d4c9u, 0x8d54bb65u,
        0x2522b521u, 0x1d33da8du, 0x55006a79u, 0x6d1105d5u, 0x8f2261d3u, 0xb7330e7fu,
        0xff00be8bu, 0xc711d127u, 0x6f67df63u, 0x5776b0cfu, 0x1f45003bu, 0x27546f97u,
        0x4a456a42u, 0x725405eeu, 0x3a67b51au, 0x0276dab6u, 0xaa00d4f2u, 0x9211bb5eu,
        0xda220baau, 0xe2336406u, 0x1ba8b557u, 0x23b9dafbu, 0x6b8a6a0fu, 0x539b05a3u,
        0xfbed0be7u, 0xc3fc644bu, 0x8bcfd4bfu, 0xb3debb13u, 0xdecfbec6u, 0xe6ded16au,
        0xaeed619eu, 0x96fc0e32u, 0x3e8a0076u, 0x069b6fdau, 0x4ea8df2eu, 0x76b9b082u,
        0x948ad484u, 0xac9bbb28u, 0xe4a80bdcu, 0xdcb96470u, 0x74cf6a34u, 0x4cde0598u,
        0x04edb56cu, 0x3cfcdac0u, 0x51eddf15u, 0x69fcb0b9u, 0x21cf004du, 0x19de6fe1u,
        0xb1a861a5u, 0x89b90e09u, 0xc18abefdu, 0xf99bd151u, 0x37516aaeu, 0x0f400502u,
        0x4773b5f6u, 0x7f62da5au, 0xd714d41eu, 0xef05bbb2u, 0xa7360b46u, 0x9f2764eau,
        0xf236613fu, 0xca270e93u, 0x8214be67u, 0xba05d1cbu, 0x1273df8fu, 0x2a62b023u,
        0x625100d7u, 0x5a406f7bu, 0xb8730b7du, 0x806264d1u, 0xc851d425u, 0xf040bb89u,
        0x5836b5cdu, 0x6027da61u, 0x28146a95u, 0x10050539u, 0x7d1400ecu, 0x45056f40u,
        0x0d36dfb4u, 0x3527b018u, 0x9d51be5cu, 0xa540d1f0u, 0xed736104u, 0xd5620ea8u,
        0x2cf9dff9u, 0x14e8b055u, 0x5cdb00a1u, 0x64ca6f0du, 0xccbc6149u, 0xf4ad0ee5u,
        0xbc9ebe11u, 0x848fd1bdu, 0xe99ed468u, 0xd18fbbc4u, 0x99bc0b30u, 0xa1ad649cu,
        0x09db6ad8u, 0x31ca0574u, 0x79f9b580u, 0x41e8da2cu, 0xa3dbbe2au, 0x9bcad186u,
        0xd3f96172u, 0xebe80edeu, 0x439e009au, 0x7b8f6f36u, 0x33bcdfc2u, 0x0badb06eu,
        0x66bcb5bbu, 0x5eadda17u, 0x169e6ae3u, 0x2e8f054fu, 0x86f90b0bu, 0xbee864a7u,
        0xf6dbd453u, 0xcecabbffu, 0x6ea2d55cu, 0x56b3baf0u, 0x1e800a04u, 0x269165a8u,
        0x8ee76becu, 0xb6f60440u, 0xfec5b4b4u, 0xc6d4db18u, 0xabc5decdu, 0x93d4b161u,
        0xdbe70195u, 0xe3f66e39u, 0x4b80607du, 0x73910fd1u, 0x3ba2bf25u, 0x03b3d089u,
        0xe180b48fu, 0xd991db23u, 0x91a26bd7u, 0xa9b3047bu, 0x01c50a3fu, 0x39d46593u,
        0x71e7d567u, 0x49f6bacbu, 0x24e7bf1eu, 0x1cf6d0b2u, 0x54c56046u, 0x6cd40feau,
        0xc4a201aeu, 0xfcb36e02u, 0xb480def6u, 0x8c91b15au, 0x750a600bu, 0x4d1b0fa7u,
        0x0528bf53u, 0x3d39d0ffu, 0x954fdebbu, 0xad5eb117u, 0xe56d01e3u, 0xdd7c6e4fu,
        0xb06d6b9au, 0x887c0436u, 0xc04fb4c2u, 0xf85edb6eu, 0x5028d52au, 0x6839ba86u,
        0x200a0a72u, 0x181b65deu, 0xfa2801d8u, 0xc2396e74u, 0x8a0ade80u, 0xb21bb12cu,
        0x1a6dbf68u, 0x227cd0c4u, 0x6a4f6030u, 0x525e0f9cu, 0x3f4f0a49u, 0x075e65e5u,
        0x4f6dd511u, 0x777cbabdu, 0xdf0ab4f9u, 0xe71bdb55u, 0xaf286ba1u, 0x9739040du,
        0x59f3bff2u, 0x61e2d05eu, 0x29d160aau, 0x11c00f06u, 0xb9b60142u, 0x81a76eeeu,
        0xc994de1au, 0xf185b1b6u, 0x9c94b463u, 0xa485dbcfu, 0xecb66b3bu, 0xd4a70497u,
        0x7cd10ad3u, 0x44c0657fu, 0x0cf3d58bu, 0x34e2ba27u, 0xd6d1de21u, 0xeec0b18du,
        0xa6f30179u, 0x9ee26ed5u, 0x36946091u, 0x0e850f3du, 0x46b6bfc9u, 0x7ea7d065u,
        0x13b6d5b0u, 0x2ba7ba1cu, 0x63940ae8u, 0x5b856544u, 0xf3f36b00u, 0xcbe204acu,
        0x83d1b458u, 0xbbc0dbf4u, 0x425b0aa5u, 0x7a4a6509u, 0x3279d5fdu, 0x0a68ba51u,
        0xa21eb415u, 0x9a0fdbb9u, 0xd23c6b4du, 0xea2d04e1u, 0x873c0134u, 0xbf2d6e98u,
        0xf71ede6cu, 0xcf0fb1c0u, 0x6779bf84u, 0x5f68d028u, 0x175b60dcu, 0x2f4a0f70u,
        0xcd796b76u, 0xf56804dau, 0xbd5bb42eu, 0x854adb82u, 0x2d3cd5c6u, 0x152dba6au,
        0x5d1e0a9eu, 0x650f6532u, 0x081e60e7u, 0x300f0f4bu, 0x783cbfbfu, 0x402dd013u,
        0xe85bde57u, 0xd04ab1fbu, 0x9879010fu, 0xa0686ea3u,
    },
    {
        0x00000000u, 0xef306b19u, 0xdb8ca0c3u, 0x34bccbdau, 0xb2f53777u, 0x5dc55c6eu,
        0x697997b4u, 0x8649fcadu, 0x6006181fu, 0x8f367306u, 0xbb8ab8dcu, 0x54bad3c5u,
        0xd2f32f68u, 0x3dc34471u, 0x097f8fabu, 0xe64fe4b2u, 0xc00c303eu, 0x2f3c5b27u,
        0x1b8090fdu, 0xf4b0fbe4u, 0x72f90749u, 0x9dc96c50u, 0xa975a78au, 0x4645cc93u,
        0xa00a2821u, 0x4f3a4338u, 0x7b8688e2u, 0x94b6e3fbu, 0x12ff1f56u, 0xfdcf744fu,
        0xc973bf95u, 0x2643d48cu, 0x85f4168du, 0x6ac47d94u, 0x5e78b64eu, 0xb148dd57u,
        0x370121fau, 0xd8314ae3u, 0xec8d8139u, 0x03bdea20u, 0xe5f20e92u, 0x0ac2658bu,
        0x3e7eae51u, 0xd14ec548u, 0x570739e5u, 0xb83752fcu, 0x8c8b9926u, 0x63bbf23fu,
        0x45f826b3u, 0xaac84daau, 0x9e748670u, 0x7144ed69u, 0xf70d11c4u, 0x183d7addu,
        0x2c81b107u, 0xc3b1da1eu, 0x25fe3eacu, 0xcace55b5u, 0xfe729e6fu, 0x1142f576u,
        0x970b09dbu, 0x783b62c2u, 0x4c87a918u, 0xa3b7c201u, 0x0e045bebu, 0xe13430f2u,
        0xd588fb28u, 0x3ab89031u, 0xbcf16c9cu, 0x53c10785u, 0x677dcc5fu, 0x884da746u,
        0x6e0243f4u, 0x813228edu, 0xb58ee337u, 0x5abe882eu, 0xdcf77483u, 0x33c71f9au,
        0x077bd440u, 0xe84bbf59u, 0xce086bd5u, 0x213800ccu, 0x1584cb16u, 0xfab4a00fu,
        0x7cfd5ca2u, 0x93cd37bbu, 0xa771fc61u, 0x48419778u, 0xae0e73cau, 0x413e18d3u,
        0x7582d309u, 0x9ab2b810u, 0x1cfb44bdu, 0xf3cb2fa4u, 0xc777e47eu, 0x28478f67u,
        0x8bf04d66u, 0x64c0267fu, 0x507ceda5u, 0xbf4c86bcu, 0x39057a11u, 0xd6351108u,
        0xe289dad2u, 0x0db9b1cbu, 0xebf65579u, 0x04c63e60u, 0x307af5bau, 0xdf4a9ea3u,
        0x5903620eu, 0xb6330917u, 0x828fc2cdu, 0x6dbfa9d4u, 0x4bfc7d58u, 0xa4cc1641u,
        0x9070dd9bu, 0x7f40b682u, 0xf9094a2fu, 0x16392136u, 0x2285eaecu, 0xcdb581f5u,
        0x2bfa6547u, 0xc4ca0e5eu, 0xf076c584u, 0x1f46ae9du, 0x990f5230u, 0x763f3929u,
        0x4283f2f3u, 0xadb399eau, 0x1c08b7d6u, 0xf338dccfu, 0xc7841715u, 0x28b47c0cu,
        0xaefd80a1u, 0x41cdebb8u, 0x75712062u, 0x9a414b7bu, 0x7c0eafc9u, 0x933ec4d0u,
        0xa7820f0au, 0x48b26413u, 0xcefb98beu, 0x21cbf3a7u, 0x1577387du, 0xfa475364u,
        0xdc0487e8u, 0x3334ecf1u, 0x0788272bu, 0xe8b84c32u, 0x6ef1b09fu, 0x81c1db86u,
        0xb57d105cu, 0x5a4d7b45u, 0xbc029ff7u, 0x5332f4eeu, 0x678e3f34u, 0x88be542du,
        0x0ef7a880u, 0xe1c7c399u, 0xd57b0843u, 0x3a4b635au, 0x99fca15bu, 0x76ccca42u,
        0x42700198u, 0xad406a81u, 0x2b09962cu, 0xc439fd35u, 0xf08536efu, 0x1fb55df6u,
        0xf9fab944u, 0x16cad25du, 0x22761987u, 0xcd46729eu, 0x4b0f8e33u, 0xa43fe52au,
        0x90832ef0u, 0x7fb345e9u, 0x59f09165u, 0xb6c0fa7cu, 0x827c31a6u, 0x6d4c5abfu,
        0xeb05a612u, 0x0435cd0bu, 0x308906d1u, 0xdfb96dc8u, 0x39f6897au, 0xd6c6e263u,
        0xe27a29b9u, 0x0d4a42a0u, 0x8b03be0du, 0x6433d514u, 0x508f1eceu, 0xbfbf75d7u,
        0x120cec3du, 0xfd3c8724u, 0xc9804cfeu, 0x26b027e7u, 0xa0f9db4au, 0x4fc9b053u,
        0x7b757b89u, 0x94451090u, 0x720af422u, 0x9d3a9f3bu, 0xa98654e1u, 0x46b63ff8u,
        0xc0ffc355u, 0x2fcfa84cu, 0x1b736396u, 0xf443088fu, 0xd200dc03u, 0x3d30b71au,
        0x098c7cc0u, 0xe6bc17d9u, 0x60f5eb74u, 0x8fc5806du, 0xbb794bb7u, 0x544920aeu,
        0xb206c41cu, 0x5d36af05u, 0x698a64dfu, 0x86ba0fc6u, 0x00f3f36bu, 0xefc39872u,
        0xdb7f53a8u, 0x344f38b1u, 0x97f8fab0u, 0x78c891a9u, 0x4c745a73u, 0xa344316au,
        0x250dcdc7u, 0xca3da6deu, 0xfe816d04u, 0x11b1061du, 0xf7fee2afu, 0x18ce89b6u,
        0x2c72426cu, 0xc3422975u, 0x450bd5d8u, 0xaa3bbec1u, 0x9e87751bu, 0x71b71e02u,
        0x57f4ca8eu, 0xb8c4a197u, 0x8c786a4du, 0x63480154u, 0xe501fdf9u, 0x0a3196e0u,
        0x3e8d5d3au, 0xd1bd3623u, 0x37f2d291u, 0xd8c2b988u, 0xec7e7252u, 0x034e194bu,
        0x8507e5e6u, 0x6a378effu, 0x5e8b4525u, 0xb1bb2e3cu,
    },
    {
        0x00000000u, 0x68032cc8u, 0xd0065990u, 0xb8057558u, 0xa5e0c5d1u, 0xcde3e919u,
        0x75e69c41u, 0x1de5b089u, 0x4e2dfd53u, 0x262ed19bu, 0x9e2ba4c3u, 0xf628880bu,
        0xebcd3882u, 0x83ce144au, 0x3bcb6112u, 0x53c84ddau, 0x9c5bfaa6u, 0xf458d66eu,
        0x4c5da336u, 0x245e8ffeu, 0x39bb3f77u, 0x51b813bfu, 0xe9bd66e7u, 0x81be4a2fu,
        0xd27607f5u, 0xba752b3du, 0x02705e65u, 0x6a7372adu, 0x7796c224u, 0x1f95eeecu,
        0xa7909bb4u, 0xcf93b77cu, 0x3d5b83bdu, 0x5558af75u, 0xed5dda2du, 0x855ef6e5u,
        0x98bb466cu, 0xf0b86aa4u, 0x48bd1ffcu, 0x20be3334u, 0x73767eeeu, 0x1b755226u,
        0xa370277eu, 0xcb730bb6u, 0xd696bb3fu, 0xbe9597f7u, 0x0690e2afu, 0x6e93ce67u,
        0xa100791bu, 0xc90355d3u, 0x7106208bu, 0x19050c43u, 0x04e0bccau, 0x6ce39002u,
        0xd4e6e55au, 0xbce5c992u, 0xef2d8448u, 0x872ea880u, 0x3f2bddd8u, 0x5728f110u,
        0x4acd4199u, 0x22ce6d51u, 0x9acb1809u, 0xf2c834c1u, 0x7ab7077au, 0x12b42bb2u,
        0xaab15eeau, 0xc2b27222u, 0xdf57c2abu, 0xb754ee63u, 0x0f519b3bu, 0x6752b7f3u,
        0x349afa29u, 0x5c99d6e1u, 0xe49ca3b9u, 0x8c9f8f71u, 0x917a3ff8u, 0xf9791330u,
        0x417c6668u, 0x297f4aa0u, 0xe6ecfddcu, 0x8eefd114u, 0x36eaa44cu, 0x5ee98884u,
        0x430c380du, 0x2b0f14c5u, 0x930a619du, 0xfb094d55u, 0xa8c1008fu, 0xc0c22c47u,
        0x78c7591fu, 0x10c475d7u, 0x0d21c55eu, 0x6522e996u, 0xdd279cceu, 0xb524b006u,
        0x47ec84c7u, 0x2fefa80fu, 0x97eadd57u, 0xffe9f19fu, 0xe20c4116u, 0x8a0f6ddeu,
        0x320a1886u, 0x5a09344eu, 0x09c17994u, 0x61c2555cu, 0xd9c72004u, 0xb1c40cccu,
        0xac21bc45u, 0xc422908du, 0x7c27e5d5u, 0x1424c91du, 0xdbb77e61u, 0xb3b452a9u,
        0x0bb127f1u, 0x63b20b39u, 0x7e57bbb0u, 0x16549778u, 0xae51e220u, 0xc652cee8u,
        0x959a8332u, 0xfd99affau, 0x459cdaa2u, 0x2d9ff66au, 0x307a46e3u, 0x58796a2bu,
        0xe07c1f73u, 0x887f33bbu, 0xf56e0ef4u, 0x9d6d223cu, 0x25685764u, 0x4d6b7bacu,
        0x508ecb25u, 0x388de7edu, 0x808892b5u, 0xe88bbe7du, 0xbb43f3a7u, 0xd340df6fu,
        0x6b45aa37u, 0x034686ffu, 0x1ea33676u, 0x76a01abeu, 0xcea56fe6u, 0xa6a6432eu,
        0x6935f452u, 0x0136d89au, 0xb933adc2u, 0xd130810au, 0xccd53183u, 0xa4d61d4bu,
        0x1cd36813u, 0x74d044dbu, 0x27180901u, 0x4f1b25c9u, 0xf71e5091u, 0x9f1d7c59u,
        0x82f8ccd0u, 0xeafbe018u, 0x52fe9540u, 0x3afdb988u, 0xc8358d49u, 0xa036a181u,
        0x1833d4d9u, 0x7030f811u, 0x6dd54898u, 0x05d66450u, 0xbdd31108u, 0xd5d03dc0u,
        0x8618701au, 0xee1b5cd2u, 0x561e298au, 0x3e1d0542u, 0x23f8b5cbu, 0x4bfb9903u,
        0xf3feec5bu, 0x9bfdc093u, 0x546e77efu, 0x3c6d5b27u, 0x84682e7fu, 0xec6b02b7u,
        0xf18eb23eu, 0x998d9ef6u, 0x2188ebaeu, 0x498bc766u, 0x1a438abcu, 0x7240a674u,
        0xca45d32cu, 0xa246ffe4u, 0xbfa34f6du, 0xd7a063a5u, 0x6fa516fdu, 0x07a63a35u,
        0x8fd9098eu, 0xe7da2546u, 0x5fdf501eu, 0x37dc7cd6u, 0x2a39cc5fu, 0x423ae097u,
        0xfa3f95cfu, 0x923cb907u, 0xc1f4f4ddu, 0xa9f7d815u, 0x11f2ad4du, 0x79f18185u,
        0x6414310cu, 0x0c171dc4u, 0xb412689cu, 0xdc114454u, 0x1382f328u, 0x7b81dfe0u,
        0xc384aab8u, 0xab878670u, 0xb66236f9u, 0xde611a31u, 0x66646f69u, 0x0e6743a1u,
        0x5daf0e7bu, 0x35ac22b3u, 0x8da957ebu, 0xe5aa7b23u, 0xf84fcbaau, 0x904ce762u,
        0x2849923au, 0x404abef2u, 0xb2828a33u, 0xda81a6fbu, 0x6284d3a3u, 0x0a87ff6bu,
        0x17624fe2u, 0x7f61632au, 0xc7641672u, 0xaf673abau, 0xfcaf7760u, 0x94ac5ba8u,
        0x2ca92ef0u, 0x44aa0238u, 0x594fb2b1u, 0x314c9e79u, 0x8949eb21u, 0xe14ac7e9u,
        0x2ed97095u, 0x46da5c5du, 0xfedf2905u, 0x96dc05cdu, 0x8b39b544u, 0xe33a998cu,
        0x5b3fecd4u, 0x333cc01cu, 0x60f48dc6u, 0x08f7a10eu, 0xb0f2d456u, 0xd8f1f89eu,
        0xc5144817u, 0xad1764dfu, 0x15121187u, 0x7d113d4fu,
    },
    {
        0x00000000u, 0x493c7d27u, 0x9278fa4eu, 0xdb448769u, 0x211d826du, 0x6821ff4au,
        0xb3657823u, 0xfa590504u, 0x423b04dau, 0x0b0779fdu, 0xd043fe94u, 0x997f83b3u,
        0x632686b7u, 0x2a1afb90u, 0xf15e7cf9u, 0xb86201deu, 0x847609b4u, 0xcd4a7493u,
        0x160ef3fau, 0x5f328eddu, 0xa56b8bd9u, 0xec57f6feu, 0x37137197u, 0x7e2f0cb0u,
        0xc64d0d6eu, 0x8f717049u, 0x5435f720u, 0x1d098a07u, 0xe7508f03u, 0xae6cf224u,
        0x7528754du, 0x3c14086au, 0x0d006599u, 0x443c18beu, 0x9f789fd7u, 0xd644e2f0u,
        0x2c1de7f4u, 0x65219ad3u, 0xbe651dbau, 0xf759609du, 0x4f3b6143u, 0x06071c64u,
        0xdd439b0du, 0x947fe62au, 0x6e26e32eu, 0x271a9e09u, 0xfc5e1960u, 0xb5626447u,
        0x89766c2du, 0xc04a110au, 0x1b0e9663u, 0x5232eb44u, 0xa86bee40u, 0xe1579367u,
        0x3a13140eu, 0x732f6929u, 0xcb4d68f7u, 0x827115d0u, 0x593592b9u, 0x1009ef9eu,
        0xea50ea9au, 0xa36c97bdu, 0x782810d4u, 0x31146df3u, 0x1a00cb32u, 0x533cb615u,
        0x8878317cu, 0xc1444c5bu, 0x3b1d495fu, 0x72213478u, 0xa965b311u, 0xe059ce36u,
        0x583bcfe8u, 0x1107b2cfu, 0xca4335a6u, 0x837f4881u, 0x79264d85u, 0x301a30a2u,
        0xeb5eb7cbu, 0xa262caecu, 0x9e76c286u, 0xd74abfa1u, 0x0c0e38c8u, 0x453245efu,
        0xbf6b40ebu, 0xf6573dccu, 0x2d13baa5u, 0x642fc782u, 0xdc4dc65cu, 0x9571bb7bu,
        0x4e353c12u, 0x07094135u, 0xfd504431u, 0xb46c3916u, 0x6f28be7fu, 0x2614c358u,
        0x1700aeabu, 0x5e3cd38cu, 0x857854e5u, 0xcc4429c2u, 0x361d2cc6u, 0x7f2151e1u,
        0xa465d688u, 0xed59abafu, 0x553baa71u, 0x1c07d756u, 0xc743503fu, 0x8e7f2d18u,
        0x7426281cu, 0x3d1a553bu, 0xe65ed252u, 0xaf62af75u, 0x9376a71fu, 0xda4ada38u,
        0x010e5d51u, 0x48322076u, 0xb26b2572u, 0xfb575855u, 0x2013df3cu, 0x692fa21bu,
        0xd14da3c5u, 0x9871dee2u, 0x4335598bu, 0x0a0924acu, 0xf05021a8u, 0xb96c5c8fu,
        0x6228dbe6u, 0x2b14a6c1u, 0x34019664u, 0x7d3deb43u, 0xa6796c2au, 0xef45110du,
        0x151c1409u, 0x5c20692eu, 0x8764ee47u, 0xce589360u, 0x763a92beu, 0x3f06ef99u,
        0xe44268f0u, 0xad7e15d7u, 0x572710d3u, 0x1e1b6df4u, 0xc55fea9du, 0x8c6397bau,
        0xb0779fd0u, 0xf94be2f7u, 0x220f659eu, 0x6b3318b9u, 0x916a1dbdu, 0xd856609au,
        0x0312e7f3u, 0x4a2e9ad4u, 0xf24c9b0au, 0xbb70e62du, 0x60346144u, 0x29081c63u,
        0xd3511967u, 0x9a6d6440u, 0x4129e329u, 0x08159e0eu, 0x3901f3fdu, 0x703d8edau,
        0xab7909b3u, 0xe2457494u, 0x181c7190u, 0x51200cb7u, 0x8a648bdeu, 0xc358f6f9u,
        0x7b3af727u, 0x32068a00u, 0xe9420d69u, 0xa07e704eu, 0x5a27754au, 0x131b086du,
        0xc85f8f04u, 0x8163f223u, 0xbd77fa49u, 0xf44b876eu, 0x2f0f0007u, 0x66337d20u,
        0x9c6a7824u, 0xd5560503u, 0x0e12826au, 0x472eff4du, 0xff4cfe93u, 0xb67083b4u,
        0x6d3404ddu, 0x240879fau, 0xde517cfeu, 0x976d01d9u, 0x4c2986b0u, 0x0515fb97u,
        0x2e015d56u, 0x673d2071u, 0xbc79a718u, 0xf545da3fu, 0x0f1cdf3bu, 0x4620a21cu,
        0x9d642575u, 0xd4585852u, 0x6c3a598cu, 0x250624abu, 0xfe42a3c2u, 0xb77edee5u,
        0x4d27dbe1u, 0x041ba6c6u, 0xdf5f21afu, 0x96635c88u, 0xaa7754e2u, 0xe34b29c5u,
        0x380faeacu, 0x7133d38bu, 0x8b6ad68fu, 0xc256aba8u, 0x19122cc1u, 0x502e51e6u,
        0xe84c5038u, 0xa1702d1fu, 0x7a34aa76u, 0x3308d751u, 0xc951d255u, 0x806daf72u,
        0x5b29281bu, 0x1215553cu, 0x230138cfu, 0x6a3d45e8u, 0xb179c281u, 0xf845bfa6u,
        0x021cbaa2u, 0x4b20c785u, 0x906440ecu, 0xd9583dcbu, 0x613a3c15u, 0x28064132u,
        0xf342c65bu, 0xba7ebb7cu, 0x4027be78u, 0x091bc35fu, 0xd25f4436u, 0x9b633911u,
        0xa777317bu, 0xee4b4c5cu, 0x350fcb35u, 0x7c33b612u, 0x866ab316u, 0xcf56ce31u,
        0x14124958u, 0x5d2e347fu, 0xe54c35a1u, 0xac704886u, 0x7734cfefu, 0x3e08b2c8u,
        0xc451b7ccu, 0x8d6dcaebu, 0x56294d82u, 0x1f1530a5u,
    },
};
/* clang-format on */

static inline uint32_t load_le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint32_t ss_crc32c_sw(uint32_t crc, const void *buf, size_t len) {
    const uint8_t *p = buf;
    uint32_t c = ~crc;

    /* Up to an 8-byte boundary, one byte at a time. */
    while (len > 0 && ((uintptr_t)p & 7) != 0) {
        c = crc32c_table[0][(c ^ *p++) & 0xff] ^ (c >> 8);
        len--;
    }
    /* Eight bytes per step: the byte at distance d from the end of the
     * 8-byte group is looked up in table[d], which accounts for the d zero
     * bytes that follow it; the lookups are independent. */
    while (len >= 8) {
        uint32_t lo = c ^ load_le32(p);
        uint32_t hi = load_le32(p + 4);
        c = crc32c_table[7][lo & 0xff] ^ crc32c_table[6][(lo >> 8) & 0xff] ^ crc32c_table[5][(lo >> 16) & 0xff] ^
            crc32c_table[4][lo >> 24] ^ crc32c_table[3][hi & 0xff] ^ crc32c_table[2][(hi >> 8) & 0xff] ^
            crc32c_table[1][(hi >> 16) & 0xff] ^ crc32c_table[0][hi >> 24];
        p += 8;
        len -= 8;
    }
    while (len > 0) {
        c = crc32c_table[0][(c ^ *p++) & 0xff] ^ (c >> 8);
        len--;
    }
    return ~c;
}

/* ---- hardware ------------------------------------------------------------ */

#ifdef SS_CRC_HW

/* Lane lengths of the three-way loops and their shift constants.
 *
 * In the reflected representation bit i of a 32-bit CRC register is the
 * coefficient of x^(31-i). Running a raw (unconditioned) CRC over n zero bits
 * multiplies its register by x^n mod P, and CRC is linear, so for a buffer
 * A||B:  raw(c, A||B) = raw(c, A) * x^(8|B|) mod P  ^  raw(0, B).
 * Three lanes L0 L1 L2 of LANE bytes are checksummed independently (L1 and
 * L2 from 0) and combined as ((c0 * X) ^ c1) * X ^ c2 with X = x^(8*LANE).
 *
 * The multiplication: the carry-less product of two reflected 32-bit values
 * is a 64-bit value whose reflected reading is a*b*x (one degree short of
 * 63), and the crc32 instruction on a 64-bit value v with a zero register
 * returns v*x^32 mod P. So crc32_u64(0, clmul(c, K)) = c*K*x^33 mod P, and
 * K = x^(8*LANE - 33) mod P gives the shift. The constants were computed
 * with the bit-at-a-time recurrence (start 0x80000000 = x^0; times x is
 * v = (v >> 1) ^ (P if v & 1 else 0)); the tests compare every lane path
 * with the tables. */
#define LANE_LONG 4096u
#define LANE_SHORT 256u
static const uint32_t k_lane_long = 0x82f89c77u;  /* x^(8*4096-33) mod P */
static const uint32_t k_lane_short = 0xb9e02b86u; /* x^(8*256-33) mod P */

static inline uint64_t load_le64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

/* Carry-less 32x32 -> 64 multiplication without PCLMUL (32 steps, no branch). */
static inline uint64_t clmul32_sw(uint32_t a, uint32_t b) {
    uint64_t r = 0;
    for (unsigned i = 0; i < 32; i++) r ^= ((uint64_t)a << i) & (0 - (uint64_t)((b >> i) & 1u));
    return r;
}

#ifdef SS_CRC_X86
SS_HW_TARGET static inline uint32_t hw_u8(uint32_t c, uint8_t b) { return _mm_crc32_u8(c, b); }
SS_HW_TARGET static inline uint32_t hw_u64(uint32_t c, uint64_t v) { return (uint32_t)_mm_crc32_u64(c, v); }
__attribute__((target("sse4.2,pclmul"))) static uint32_t shift_clmul(uint32_t c, uint32_t k) {
    __m128i prod = _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)c), _mm_cvtsi64_si128((long long)k), 0x00);
    return (uint32_t)_mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(prod));
}
#else
SS_HW_TARGET static inline uint32_t hw_u8(uint32_t c, uint8_t b) { return ss_arm_crc32cb(c, b); }
SS_HW_TARGET static inline uint32_t hw_u64(uint32_t c, uint64_t v) { return ss_arm_crc32cd(c, v); }
#endif

/* The last bytes, 8 then 1 at a time, into the raw register c. */
SS_HW_TARGET static inline uint32_t hw_tail(uint32_t c, const uint8_t *p, size_t len) {
    while (len >= 8) {
        c = hw_u64(c, load_le64(p));
        p += 8;
        len -= 8;
    }
    while (len > 0) {
        c = hw_u8(c, *p++);
        len--;
    }
    return c;
}

SS_HW_TARGET static inline uint32_t shift(uint32_t c, uint32_t k, bool clmul) {
#ifdef SS_CRC_X86
    if (clmul) return shift_clmul(c, k);
#else
    (void)clmul;
#endif
    return hw_u64(0, clmul32_sw(c, k));
}

/* `clmul`: the CPU has a carry-less multiply instruction (x86 PCLMUL). */
SS_HW_TARGET static uint32_t crc32c_hw(uint32_t crc, const uint8_t *p, size_t len, bool clmul) {
    uint32_t c0 = ~crc;

    while (len > 0 && ((uintptr_t)p & 7) != 0) {
        c0 = hw_u8(c0, *p++);
        len--;
    }
    while (len >= 3 * LANE_LONG) {
        uint32_t c1 = 0, c2 = 0;
        const uint8_t *end = p + LANE_LONG;
        do {
            c0 = hw_u64(c0, load_le64(p));
            c1 = hw_u64(c1, load_le64(p + LANE_LONG));
            c2 = hw_u64(c2, load_le64(p + 2 * LANE_LONG));
            p += 8;
        } while (p < end);
        c0 = shift(c0, k_lane_long, clmul) ^ c1;
        c0 = shift(c0, k_lane_long, clmul) ^ c2;
        p += 2 * LANE_LONG;
        len -= 3 * LANE_LONG;
    }
    while (len >= 3 * LANE_SHORT) {
        uint32_t c1 = 0, c2 = 0;
        const uint8_t *end = p + LANE_SHORT;
        do {
            c0 = hw_u64(c0, load_le64(p));
            c1 = hw_u64(c1, load_le64(p + LANE_SHORT));
            c2 = hw_u64(c2, load_le64(p + 2 * LANE_SHORT));
            p += 8;
        } while (p < end);
        c0 = shift(c0, k_lane_short, clmul) ^ c1;
        c0 = shift(c0, k_lane_short, clmul) ^ c2;
        p += 2 * LANE_SHORT;
        len -= 3 * LANE_SHORT;
    }
    return ~hw_tail(c0, p, len);
}

#ifdef SS_CRC_X86
/* Folding (Gopal et al., "Fast CRC Computation for Generic Polynomials Using
 * PCLMULQDQ Instruction", Intel, 2009), in the reflected representation of the
 * lane comment above. A 16-byte little-endian load is a 128-bit value X whose
 * bit k is the coefficient of x^(127-k): its low quadword H holds x^127..x^64,
 * its high quadword L x^63..x^0. Moving X forward over D bits of message,
 *   X * x^D = H * x^(64+D) + L * x^D  ==  H * (x^(64+D) mod P) + L * (x^D mod P),
 * and since a carry-less product of reflected quadwords reads as a*b*x, the
 * constants are x^(64+D-1) mod P (for H) and x^(D-1) mod P (for L), each a
 * reflected 32-bit value in the high half of its quadword. The products are 96
 * bits: adding the next 16 bytes of message keeps a 128-bit value congruent to
 * the message so far. Sixteen such values (four ZMM registers) cover 256
 * bytes, and each moves forward 2048 bits a step. At the end they are folded
 * into one (over 512, then 384, 256 and 128 bits), and two crc32 instructions
 * reduce it: crc32(crc32(0, H), L) = (H * x^64 + L) * x^32 mod P, the CRC of
 * the message. The running CRC enters as the crc32 instruction takes its
 * register: xored into the first four bytes.
 * Constants (P = 0x82F63B78; x^0 = 0x80000000, times x: v = (v >> 1) ^ (P if
 * v & 1 else 0)), as (x^(64+D-1), x^(D-1)) mod P: */
#define FOLD_K(hi, lo) _mm_set_epi64x((long long)((uint64_t)(lo) << 32), (long long)((uint64_t)(hi) << 32))
#define K_2048 FOLD_K(0xe9a5d8beu, 0x1426a815u)
#define K_512 FOLD_K(0x1c19243bu, 0x75bba45bu)
#define K_384 FOLD_K(0xa46ef4aau, 0x6051243fu)
#define K_256 FOLD_K(0x33ccbbbcu, 0xa2158b34u)
#define K_128 FOLD_K(0x3743f7bdu, 0x3171d430u)
#define FOLD_TARGET __attribute__((target("avx512f,vpclmulqdq,pclmul,sse4.2")))
#define FOLD_MIN 256u

FOLD_TARGET static inline __m128i fold128(__m128i x, __m128i k) {
    return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11));
}

/* x moved forward over the distance of k, plus y: in each 128-bit lane. */
FOLD_TARGET static inline __m512i fold512(__m512i x, __m512i k, __m512i y) {
    return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(x, k, 0x00), _mm512_clmulepi64_epi128(x, k, 0x11), y,
                                     0x96);
}

/* len >= FOLD_MIN */
FOLD_TARGET static uint32_t crc32c_fold(uint32_t crc, const uint8_t *p, size_t len) {
    const __m512i k2048 = _mm512_broadcast_i32x4(K_2048), k512 = _mm512_broadcast_i32x4(K_512);
    __m512i a0 = _mm512_loadu_si512(p), a1 = _mm512_loadu_si512(p + 64), a2 = _mm512_loadu_si512(p + 128),
            a3 = _mm512_loadu_si512(p + 192);
    a0 = _mm512_xor_si512(a0, _mm512_castsi128_si512(_mm_cvtsi32_si128((int)~crc)));
    p += 256;
    len -= 256;
    while (len >= 256) {
        a0 = fold512(a0, k2048, _mm512_loadu_si512(p));
        a1 = fold512(a1, k2048, _mm512_loadu_si512(p + 64));
        a2 = fold512(a2, k2048, _mm512_loadu_si512(p + 128));
        a3 = fold512(a3, k2048, _mm512_loadu_si512(p + 192));
        p += 256;
        len -= 256;
    }
    a1 = fold512(a0, k512, a1);
    a2 = fold512(a1, k512, a2);
    a3 = fold512(a2, k512, a3);
    __m128i x = _mm512_extracti32x4_epi32(a3, 3);
    x = _mm_xor_si128(x, fold128(_mm512_extracti32x4_epi32(a3, 2), K_128));
    x = _mm_xor_si128(x, fold128(_mm512_extracti32x4_epi32(a3, 1), K_256));
    x = _mm_xor_si128(x, fold128(_mm512_castsi512_si128(a3), K_384));
    uint32_t c = (uint32_t)_mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(x));
    c = (uint32_t)_mm_crc32_u64(c, (uint64_t)_mm_extract_epi64(x, 1));
    return ~hw_tail(c, p, len);
}

static bool fold_available(void) {
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("vpclmulqdq") &&
           __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.2");
}
#endif

/* The CPU has a carry-less multiply instruction (x86 PCLMUL) for the lanes' combine. */
static bool has_clmul(void) {
#if defined(SS_CRC_X86)
    return __builtin_cpu_supports("pclmul") != 0;
#else
    return false;
#endif
}

#endif /* SS_CRC_HW */

bool ss_crc32c_by(ss_crc32c_path path, uint32_t crc, const void *buf, size_t len, uint32_t *out) {
    switch (path) {
    case SS_CRC32C_TABLES: *out = ss_crc32c_sw(crc, buf, len); return true;
    case SS_CRC32C_LANES:
#if defined(SS_CRC_HW)
        if (!ss_crc32c_hw_available()) return false;
        *out = crc32c_hw(crc, buf, len, has_clmul());
        return true;
#else
        return false;
#endif
    case SS_CRC32C_FOLD:
#if defined(SS_CRC_X86)
        if (!fold_available()) return false;
        *out = len >= FOLD_MIN ? crc32c_fold(crc, buf, len) : crc32c_hw(crc, buf, len, true);
        return true;
#else
        return false;
#endif
    }
    return false;
}

bool ss_crc32c_hw_available(void) {
#if defined(SS_CRC_X86)
    return __builtin_cpu_supports("sse4.2") != 0;
#elif defined(SS_CRC_ARM) && defined(SS_ARM_CRC_ALWAYS)
    return true;
#elif defined(SS_CRC_ARM)
#ifndef HWCAP_CRC32
#define HWCAP_CRC32 (1ul << 7) /* arch/arm64/include/uapi/asm/hwcap.h */
#endif
    return (getauxval(AT_HWCAP) & HWCAP_CRC32) != 0;
#else
    return false;
#endif
}

uint32_t ss_crc32c(uint32_t crc, const void *buf, size_t len) {
#if defined(SS_CRC_X86)
    if (len >= FOLD_MIN && fold_available()) return crc32c_fold(crc, buf, len);
#endif
#if defined(SS_CRC_HW)
    if (ss_crc32c_hw_available()) return crc32c_hw(crc, buf, len, has_clmul());
#endif
    return ss_crc32c_sw(crc, buf, len);
}

/* ---- CRC-32 (IEEE) ------------------------------------------------------- */

uint32_t ss_crc32(uint32_t crc, const void *buf, size_t len) {
    const Bytef *p = buf;
    uLong c = crc;

    /* zlib takes an unsigned int length: feed it in chunks. */
    while (len > 0) {
        uInt n = len > UINT_MAX ? UINT_MAX : (uInt)len;
        c = crc32(c, p, n);
        p += n;
        len -= n;
    }
    return (uint32_t)c;
}
