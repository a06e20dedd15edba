// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void --print-host-llvm | filecheck %s --check-prefix=COMPILE
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void | filecheck %s
// REQUIRES: gpu

// TMA (sm_90): the host builds two tensor maps over a 64x64 f32 tensor in device
// memory (nvgpu.tma.create.descriptor -> mgpuTensorMapEncodeTiledMemref), one plain
// with 16x32 boxes and one with 128-byte swizzling and 8x32 boxes. One CTA loads a box
// of each into shared memory with nvgpu.tma.async.load, both completing on one mbarrier
// (thread 0 expects their 3072 bytes with arrive.expect_tx; every thread waits on
// phase 0 with try_wait.parity), then copies the tiles out as they lie in shared
// memory. A[i][j] = 64 i + j, so the CHECK lines read which element went where: the
// plain tile is rows 16-31, columns 8-39 of A; in the swizzled one (rows 40-47, columns
// 32-63) the 16-byte chunk c of row r lies at chunk c xor (r mod 8).

// COMPILE: call ptr @mgpuTensorMapEncodeTiledMemref(i64 {{%[^,]*|2}}, ptr %{{.*}}, i64 7, i64 0, i64 0, i64 0, i64 0, ptr %{{.*}})
// COMPILE: call ptr @mgpuTensorMapEncodeTiledMemref(i64 {{%[^,]*|2}}, ptr %{{.*}}, i64 7, i64 0, i64 3, i64 0, i64 0, ptr %{{.*}})
// COMPILE: call void @mgpuLaunchKernel(

// one mbarrier (expect_tx of their bytes, a parity-0 wait), then copied out.
!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!plain = !nvgpu.tensormap.descriptor<tensor = memref<16x32xf32, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!swizzled = !nvgpu.tensormap.descriptor<tensor = memref<8x32xf32, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>

module attributes {gpu.container_module} {
  memref.global "private" @plain_tile : memref<16x32xf32, 3> {alignment = 1024 : i64}
  memref.global "private" @swizzled_tile : memref<8x32xf32, 3> {alignment = 1024 : i64}

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    // A[i][j] = 64 i + j, exact in f32.
    %a = memref.alloc() : memref<64x64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %row = arith.muli %i, %c64 : index
        %v = arith.addi %row, %j : index
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to f32
        memref.store %vf, %a[%i, %j] : memref<64x64xf32>
      }
    }
    %d_a = gpu.alloc () : memref<64x64xf32>
    gpu.memcpy %d_a, %a : memref<64x64xf32>, memref<64x64xf32>
    %d_out1 = gpu.alloc () : memref<16x32xf32>
    %d_out2 = gpu.alloc () : memref<8x32xf32>
    %u = memref.cast %d_a : memref<64x64xf32> to memref<*xf32>
    // Boxes are given innermost dimension last, as the tiles' shapes.
    %plain_map = nvgpu.tma.create.descriptor %u box[%c16, %c32] : memref<*xf32> -> !plain
    %swizzled_map = nvgpu.tma.create.descriptor %u box[%c8, %c32] : memref<*xf32> -> !swizzled
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k8 = arith.constant 8 : index
      %k16 = arith.constant 16 : index
      %k32 = arith.constant 32 : index
      %k40 = arith.constant 40 : index
      %k128 = arith.constant 128 : index
      %k256 = arith.constant 256 : index
      %k512 = arith.constant 512 : index
      %bytes = arith.constant 3072 : index
      %ticks = arith.constant 10000000 : index
      %parity = arith.constant false
      %plain_tile = memref.get_global @plain_tile : memref<16x32xf32, 3>
      %swizzled_tile = memref.get_global @swizzled_tile : memref<8x32xf32, 3>
      %barrier = nvgpu.mbarrier.create -> !bar
      %first = arith.cmpi eq, %tx, %k0 : index
      scf.if %first {
        nvgpu.mbarrier.init %barrier[%k0], %k1 : !bar
      }
      gpu.barrier
      // Thread 0 expects both tiles' bytes and starts the copies: rows 16-31,
      // columns 8-39 plain; rows 40-47, columns 32-63 swizzled (coordinates are
      // innermost first: column, row).
      scf.if %first {
        nvgpu.mbarrier.arrive.expect_tx %barrier[%k0], %bytes : !bar
        nvgpu.tma.async.load %plain_map[%k8, %k16], %barrier[%k0] to %plain_tile : !plain, !bar -> memref<16x32xf32, 3>
        nvgpu.tma.async.load %swizzled_map[%k32, %k40], %barrier[%k0] to %swizzled_tile : !swizzled, !bar -> memref<8x32xf32, 3>
      }
      nvgpu.mbarrier.try_wait.parity %barrier[%k0], %parity, %ticks : !bar
      scf.for %e = %tx to %k512 step %k128 {
        %r = arith.divui %e, %k32 : index
        %c = arith.remui %e, %k32 : index
        %v = memref.load %plain_tile[%r, %c] : memref<16x32xf32, 3>
        memref.store %v, %d_out1[%r, %c] : memref<16x32xf32>
      }
      scf.for %e = %tx to %k256 step %k128 {
        %r = arith.divui %e, %k32 : index
        %c = arith.remui %e, %k32 : index
        %v = memref.load %swizzled_tile[%r, %c] : memref<8x32xf32, 3>
        memref.store %v, %d_out2[%r, %c] : memref<8x32xf32>
      }
      gpu.terminator
    }
    %out1 = memref.alloc() : memref<16x32xf32>
    %out2 = memref.alloc() : memref<8x32xf32>
    gpu.memcpy %out1, %d_out1 : memref<16x32xf32>, memref<16x32xf32>
    gpu.memcpy %out2, %d_out2 : memref<8x32xf32>, memref<8x32xf32>
    %p1 = memref.cast %out1 : memref<16x32xf32> to memref<*xf32>
    %p2 = memref.cast %out2 : memref<8x32xf32> to memref<*xf32>
    call @printMemrefF32(%p1) : (memref<*xf32>) -> ()
    call @printMemrefF32(%p2) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [16, 32] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}1032,   1033,   1034,   1035,   1036,   1037,   1038,   1039,   1040,   1041,   1042,   1043,   1044,   1045,   1046,   1047,   1048,   1049,   1050,   1051,   1052,   1053,   1054,   1055,   1056,   1057,   1058,   1059,   1060,   1061,   1062,   1063],
// CHECK-NEXT:  [1096,   1097,   1098,   1099,   1100,   1101,   1102,   1103,   1104,   1105,   1106,   1107,   1108,   1109,   1110,   1111,   1112,   1113,   1114,   1115,   1116,   1117,   1118,   1119,   1120,   1121,   1122,   1123,   1124,   1125,   1126,   1127],
// CHECK-NEXT:  [1160,   1161,   1162,   1163,   1164,   1165,   1166,   1167,   1168,   1169,   1170,   1171,   1172,   1173,   1174,   1175,   1176,   1177,   1178,   1179,   1180,   1181,   1182,   1183,   1184,   1185,   1186,   1187,   1188,   1189,   1190,   1191],
// CHECK-NEXT:  [1224,   1225,   1226,   1227,   1228,   1229,   1230,   1231,   1232,   1233,   1234,   1235,   1236,   1237,   1238,   1239,   1240,   1241,   1242,   1243,   1244,   1245,   1246,   1247,   1248,   1249,   1250,   1251,   1252,   1253,   1254,   1255],
// CHECK-NEXT:  [1288,   1289,   1290,   1291,   1292,   1293,   1294,   1295,   1296,   1297,   1298,   1299,   1300,   1301,   1302,   1303,   1304,   1305,   1306,   1307,   1308,   1309,   1310,   1311,   1312,   1313,   1314,   1315,   1316,   1317,   1318,   1319],
// CHECK-NEXT:  [1352,   1353,   1354,   1355,   1356,   1357,   1358,   1359,   1360,   1361,   1362,   1363,   1364,   1365,   1366,   1367,   1368,   1369,   1370,   1371,   1372,   1373,   1374,   1375,   1376,   1377,   1378,   1379,   1380,   1381,   1382,   1383],
// CHECK-NEXT:  [1416,   1417,   1418,   1419,   1420,   1421,   1422,   1423,   1424,   1425,   1426,   1427,   1428,   1429,   1430,   1431,   1432,   1433,   1434,   1435,   1436,   1437,   1438,   1439,   1440,   1441,   1442,   1443,   1444,   1445,   1446,   1447],
// CHECK-NEXT:  [1480,   1481,   1482,   1483,   1484,   1485,   1486,   1487,   1488,   1489,   1490,   1491,   1492,   1493,   1494,   1495,   1496,   1497,   1498,   1499,   1500,   1501,   1502,   1503,   1504,   1505,   1506,   1507,   1508,   1509,   1510,   1511],
// CHECK-NEXT:  [1544,   1545,   1546,   1547,   1548,   1549,   1550,   1551,   1552,   1553,   1554,   1555,   1556,   1557,   1558,   1559,   1560,   1561,   1562,   1563,   1564,   1565,   1566,   1567,   1568,   1569,   1570,   1571,   1572,   1573,   1574,   1575],
// CHECK-NEXT:  [1608,   1609,   1610,   1611,   1612,   1613,   1614,   1615,   1616,   1617,   1618,   1619,   1620,   1621,   1622,   1623,   1624,   1625,   1626,   1627,   1628,   1629,   1630,   1631,   1632,   1633,   1634,   1635,   1636,   1637,   1638,   1639],
// CHECK-NEXT:  [1672,   1673,   1674,   1675,   1676,   1677,   1678,   1679,   1680,   1681,   1682,   1683,   1684,   1685,   1686,   1687,   1688,   1689,   1690,   1691,   1692,   1693,   1694,   1695,   1696,   1697,   1698,   1699,   1700,   1701,   1702,   1703],
// CHECK-NEXT:  [1736,   1737,   1738,   1739,   1740,   1741,   1742,   1743,   1744,   1745,   1746,   1747,   1748,   1749,   1750,   1751,   1752,   1753,   1754,   1755,   1756,   1757,   1758,   1759,   1760,   1761,   1762,   1763,   1764,   1765,   1766,   1767],
// CHECK-NEXT:  [1800,   1801,   1802,   1803,   1804,   1805,   1806,   1807,   1808,   1809,   1810,   1811,   1812,   1813,   1814,   1815,   1816,   1817,   1818,   1819,   1820,   1821,   1822,   1823,   1824,   1825,   1826,   1827,   1828,   1829,   1830,   1831],
// CHECK-NEXT:  [1864,   1865,   1866,   1867,   1868,   1869,   1870,   1871,   1872,   1873,   1874,   1875,   1876,   1877,   1878,   1879,   1880,   1881,   1882,   1883,   1884,   1885,   1886,   1887,   1888,   1889,   1890,   1891,   1892,   1893,   1894,   1895],
// CHECK-NEXT:  [1928,   1929,   1930,   1931,   1932,   1933,   1934,   1935,   1936,   1937,   1938,   1939,   1940,   1941,   1942,   1943,   1944,   1945,   1946,   1947,   1948,   1949,   1950,   1951,   1952,   1953,   1954,   1955,   1956,   1957,   1958,   1959],
// CHECK-NEXT:  [1992,   1993,   1994,   1995,   1996,   1997,   1998,   1999,   2000,   2001,   2002,   2003,   2004,   2005,   2006,   2007,   2008,   2009,   2010,   2011,   2012,   2013,   2014,   2015,   2016,   2017,   2018,   2019,   2020,   2021,   2022,   2023]]
// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [8, 32] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}2592,   2593,   2594,   2595,   2596,   2597,   2598,   2599,   2600,   2601,   2602,   2603,   2604,   2605,   2606,   2607,   2608,   2609,   2610,   2611,   2612,   2613,   2614,   2615,   2616,   2617,   2618,   2619,   2620,   2621,   2622,   2623],
// CHECK-NEXT:  [2660,   2661,   2662,   2663,   2656,   2657,   2658,   2659,   2668,   2669,   2670,   2671,   2664,   2665,   2666,   2667,   2676,   2677,   2678,   2679,   2672,   2673,   2674,   2675,   2684,   2685,   2686,   2687,   2680,   2681,   2682,   2683],
// CHECK-NEXT:  [2728,   2729,   2730,   2731,   2732,   2733,   2734,   2735,   2720,   2721,   2722,   2723,   2724,   2725,   2726,   2727,   2744,   2745,   2746,   2747,   2748,   2749,   2750,   2751,   2736,   2737,   2738,   2739,   2740,   2741,   2742,   2743],
// CHECK-NEXT:  [2796,   2797,   2798,   2799,   2792,   2793,   2794,   2795,   2788,   2789,   2790,   2791,   2784,   2785,   2786,   2787,   2812,   2813,   2814,   2815,   2808,   2809,   2810,   2811,   2804,   2805,   2806,   2807,   2800,   2801,   2802,   2803],
// CHECK-NEXT:  [2864,   2865,   2866,   2867,   2868,   2869,   2870,   2871,   2872,   2873,   2874,   2875,   2876,   2877,   2878,   2879,   2848,   2849,   2850,   2851,   2852,   2853,   2854,   2855,   2856,   2857,   2858,   2859,   2860,   2861,   2862,   2863],
// CHECK-NEXT:  [2932,   2933,   2934,   2935,   2928,   2929,   2930,   2931,   2940,   2941,   2942,   2943,   2936,   2937,   2938,   2939,   2916,   2917,   2918,   2919,   2912,   2913,   2914,   2915,   2924,   2925,   2926,   2927,   2920,   2921,   2922,   2923],
// CHECK-NEXT:  [3000,   3001,   3002,   3003,   3004,   3005,   3006,   3007,   2992,   2993,   2994,   2995,   2996,   2997,   2998,   2999,   2984,   2985,   2986,   2987,   2988,   2989,   2990,   2991,   2976,   2977,   2978,   2979,   2980,   2981,   2982,   2983],
// CHECK-NEXT:  [3068,   3069,   3070,   3071,   3064,   3065,   3066,   3067,   3060,   3061,   3062,   3063,   3056,   3057,   3058,   3059,   3052,   3053,   3054,   3055,   3048,   3049,   3050,   3051,   3044,   3045,   3046,   3047,   3040,   3041,   3042,   3043]]
