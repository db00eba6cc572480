/**
 * The tt-llk instruction macros (`TT_OP_<NAME>`, `TT_<NAME>`, `TTI_<NAME>`) as data: for each
 * instruction, its opcode and the macro's own argument list, each argument with the bit at which
 * the macro adds it into the word (`TT_OP(opcode, params) = (opcode << 24) + params`, so the
 * opcode lands in bits 31:24, which is the word ttsim decodes).
 *
 * Read from tenstorrent/tt-llk `tt_llk_{wormhole_b0,blackhole}/common/inc/ckernel_ops.h` at
 * commit 36b092e8e195. An argument may use the bits from its shift up to the next higher argument's
 * shift (bit 23 for the first one); the `TT_*_VALID` macros there give the same widths.
 * Format of each row: `NAME opcode arg:shift arg:shift ...`, arguments in the macro's order.
 * The rows both files agree on are in COMMON_MACROS; each arch adds the rows where it differs (or
 * that only it has), which take precedence.
 */

/** Rows identical in both ckernel_ops.h files. */
export const COMMON_MACROS = `
ADDDMAREG 0x58 OpBisConst:23 ResultRegIndex:12 OpBRegIndex:6 OpARegIndex:0
ADDRCRXY 0x53 CntSetMask:21 Ch1_Y:15 Ch1_X:12 Ch0_Y:9 Ch0_X:6 BitMask:0
ADDRCRZW 0x56 CntSetMask:21 Ch1_Y:15 Ch1_X:12 Ch0_Y:9 Ch0_X:6 BitMask:0
ATCAS 0x64 MemHierSel:23 SwapVal:18 CmpVal:14 Sel32b:12 DataRegIndex:6 AddrRegIndex:0
ATGETM 0xa0 mutex_index:0
ATINCGET 0x61 MemHierSel:23 WrapVal:14 Sel32b:12 DataRegIndex:6 AddrRegIndex:0
ATINCGETPTR 0x62 MemHierSel:23 NoIncr:22 IncrVal:18 WrapVal:14 Sel32b:12 DataRegIndex:6 AddrRegIndex:0
ATRELM 0xa1 mutex_index:0
ATSWAP 0x63 MemHierSel:23 SwapMask:14 DataRegIndex:6 AddrRegIndex:0
BITWOPDMAREG 0x5b OpBisConst:23 OpSel:18 ResultRegIndex:12 OpBRegIndex:6 OpARegIndex:0
CLEARDVALID 0x36 cleardvalid:22 reset:0
CLREXPHIST 0x21
CMPDMAREG 0x5d OpBisConst:23 OpSel:18 ResultRegIndex:12 OpBRegIndex:6 OpARegIndex:0
DMANOP 0x60
FLUSHDMA 0x46 FlushSpec:0
GATESRCRST 0x35 reset_srcb_gate_control:1 reset_srca_gate_control:0
INCADCXY 0x52 CntSetMask:21 Ch1_Y:15 Ch1_X:12 Ch0_Y:9 Ch0_X:6
INCADCZW 0x55 CntSetMask:21 Ch1_Y:15 Ch1_X:12 Ch0_Y:9 Ch0_X:6
INCRWC 0x38 rwc_cr:18 rwc_d:14 rwc_b:10 rwc_a:6
LOADIND 0x49 SizeSel:22 OffsetIndex:14 AutoIncSpec:12 DataRegIndex:6 AddrRegIndex:0
LOADREG 0x68 TdmaDataRegIndex:18 RegAddr:0
MOP_CFG 0x03 zmask_hi16:0
MULDMAREG 0x5a OpBisConst:23 ResultRegIndex:12 OpBRegIndex:6 OpARegIndex:0
NOP 0x02
RAREB 0x15
RDCFG 0xb1 GprAddress:16 CfgReg:0
REG2FLOP 0x48 SizeSel:22 TargetSel:20 ByteOffset:18 ContextId_2:16 FlopIndex:6 RegIndex:0
REPLAY 0x04 start_idx:14 len:4 execute_while_loading:1 load_mode:0
RMWCIB0 0xb3 Mask:16 Data:8 CfgRegAddr:0
RMWCIB1 0xb4 Mask:16 Data:8 CfgRegAddr:0
RMWCIB2 0xb5 Mask:16 Data:8 CfgRegAddr:0
RMWCIB3 0xb6 Mask:16 Data:8 CfgRegAddr:0
RSTDMA 0x44
SEMGET 0xa5 sem_sel:2
SEMINIT 0xa3 max_value:20 init_value:16 sem_sel:2
SEMPOST 0xa4 sem_sel:2
SEMWAIT 0xa6 stall_res:15 sem_sel:2 wait_sem_cond:0
SETADC 0x50 CntSetMask:21 ChannelIndex:20 DimensionIndex:18 Value:0
SETADCXX 0x5e CntSetMask:21 x_end2:10 x_start:0
SETADCXY 0x51 CntSetMask:21 Ch1_Y:15 Ch1_X:12 Ch0_Y:9 Ch0_X:6 BitMask:0
SETADCZW 0x54 CntSetMask:21 Ch1_W:15 Ch1_Z:12 Ch0_W:9 Ch0_Z:6 BitMask:0
SETASHRMH 0x1e reg_mask:1 halo_mask:0
SETASHRMH0 0x1a reg_mask:1 halo_mask:0
SETASHRMH1 0x1b reg_mask:1 halo_mask:0
SETASHRMV 0x1c reg_mask2:0
SETC16 0xb2 setc16_reg:16 setc16_value:0
SETDMAREG 0x45 Payload_SigSelSize:22 Payload_SigSel:8 SetSignalsMode:7 RegIndex16b:0
SETDVALID 0x57 setvalid:0
SETIBRWC 0x39 rwc_cr:18 rwc_bias:6 set_inc_ctrl:0
SETPKEDGOF 0x1d y_end:12 y_start:8 x_end:4 x_start:0
SETRWC 0x37 clear_ab_vld:22 rwc_cr:18 rwc_d:14 rwc_b:10 rwc_a:6 BitMask:0
SFPABS 0x7d imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPADD 0x85 lreg_src_a:16 lreg_src_b:12 lreg_src_c:8 lreg_dest:4 instr_mod1:0
SFPADDI 0x75 imm16_math:8 lreg_dest:4 instr_mod1:0
SFPAND 0x7e imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPCAST 0x90 lreg_src_c:8 lreg_dest:4 instr_mod1:0
SFPCOMPC 0x8b imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPCONFIG 0x91 imm16_math:8 config_dest:4 instr_mod1:0
SFPDIVP2 0x76 imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPENCC 0x8a imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPEXEXP 0x77 imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPEXMAN 0x78 imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPIADD 0x79 imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPLOADI 0x71 lreg_ind:20 instr_mod0:16 imm16:0
SFPLUT 0x73 lreg_ind:20 instr_mod0:16 dest_reg_addr:0
SFPLUTFP32 0x95 lreg_dest:4 instr_mod1:0
SFPLZ 0x81 imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPMAD 0x84 lreg_src_a:16 lreg_src_b:12 lreg_src_c:8 lreg_dest:4 instr_mod1:0
SFPMOV 0x7c imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPMUL 0x86 lreg_src_a:16 lreg_src_b:12 lreg_src_c:8 lreg_dest:4 instr_mod1:0
SFPMULI 0x74 imm16_math:8 lreg_dest:4 instr_mod1:0
SFPNOP 0x8f
SFPNOT 0x80 imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPOR 0x7f imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPPOPC 0x88 imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPPUSHC 0x87 imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPSETCC 0x7b imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPSETEXP 0x82 imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPSETMAN 0x83 imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPSETSGN 0x89 imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPSHFT 0x7a imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPSHFT2 0x94 imm12_math:12 lreg_src_c:8 lreg_dest:4 instr_mod1:0
SFPSWAP 0x92 imm12_math:12 lreg_src_c:8 lreg_dest:4 instr_mod1:0
SFPTRANSP 0x8c imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPXOR 0x8d imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFP_STOCH_RND 0x8e rnd_mode:21 imm8_math:16 lreg_src_b:12 lreg_src_c:8 lreg_dest:4 instr_mod1:0
SHIFTDMAREG 0x5c OpBisConst:23 OpSel:18 ResultRegIndex:12 OpBRegIndex:6 OpARegIndex:0
SHIFTXA 0x17 log2_amount2:2 shift_mode:0
STALLWAIT 0xa2 stall_res:15 wait_res:0
STOREIND 0x66 MemHierSel:23 SizeSel:22 RegSizeSel:21 OffsetIndex:14 AutoIncSpec:12 DataRegIndex:6 AddrRegIndex:0
STOREREG 0x67 TdmaDataRegIndex:18 RegAddr:0
SUBDMAREG 0x59 OpBisConst:23 ResultRegIndex:12 OpBRegIndex:6 OpARegIndex:0
TBUFCMD 0x4b
TRNSPSRCA 0x14
TRNSPSRCB 0x16
WRCFG 0xb0 GprAddress:16 wr128b:15 CfgReg:0
XMOV 0x40 Mov_block_selection:23 Last:0
ZEROSRC 0x11 zero_val:4 write_mode:3 bank_mask:2 src_mask:0
`;

/** Wormhole B0 rows that differ from Blackhole's. */
export const WORMHOLE_MACROS = `
APOOL3S1 0x25 clear_dvalid:22 addr_mode:15 index_en:14 dst:0
APOOL3S2 0x32 clear_dvalid:22 addr_mode:15 index_en:14 dst:0
CONV3S1 0x22 clear_dvalid:22 rotate_weights:17 addr_mode:15 dst:0
CONV3S2 0x23 clear_dvalid:22 rotate_weights:17 addr_mode:15 dst:0
DOTPV 0x29 clear_dvalid:22 dest_accum_en:21 instr_mod19:19 addr_mode:15 dst:0
ELWADD 0x28 clear_dvalid:22 dest_accum_en:21 instr_mod19:19 addr_mode:15 dst:0
ELWMUL 0x27 clear_dvalid:22 dest_accum_en:21 instr_mod19:19 addr_mode:15 dst:0
ELWSUB 0x30 clear_dvalid:22 dest_accum_en:21 instr_mod19:19 addr_mode:15 dst:0
GAPOOL 0x34 clear_dvalid:22 instr_mod19:19 addr_mode:15 max_pool_index_en:14 dst:0
GMPOOL 0x33 clear_dvalid:22 instr_mod19:19 addr_mode:15 max_pool_index_en:14 dst:0
MFCONV3S1 0x3a clear_dvalid:22 rotate_weights:17 addr_mode:15 dst:0
MOP 0x01 mop_type:23 loop_count:16 zmask_lo16:0
MOVA2D 0x12 dest_32b_lo:23 src:17 addr_mode:15 instr_mod:12 dst:0
MOVB2A 0x0b srca:17 addr_mode:15 instr_mod:12 srcb:0
MOVB2D 0x13 dest_32b_lo:23 src:17 addr_mode:15 instr_mod:12 dst:0
MOVD2A 0x08 dest_32b_lo:23 src:17 addr_mode:15 instr_mod:12 dst:0
MOVD2B 0x0a dest_32b_lo:23 src:17 addr_mode:15 instr_mod:12 dst:0
MOVDBGA2D 0x09 dest_32b_lo:23 src:17 addr_mode:15 instr_mod:12 dst:0
MPOOL3S1 0x24 clear_dvalid:22 addr_mode:15 index_en:14 dst:0
MPOOL3S2 0x31 clear_dvalid:22 addr_mode:15 index_en:14 dst:0
MVMUL 0x26 clear_dvalid:22 instr_mod19:19 addr_mode:15 dst:0
PACR 0x41 AddrMode:15 ZeroWrite:12 PackSel:8 OvrdThreadId:7 Concat:4 Flush:1 Last:0
PACR_SETREG 0x4a Push:23 AddrSel:22 WrData:12 PackSel:8 StreamId:2 Flush:1 Last:0
SFPLOAD 0x70 lreg_ind:20 instr_mod0:16 sfpu_addr_mode:14 dest_reg_addr:0
SFPLOADMACRO 0x93 lreg_ind:20 instr_mod0:16 sfpu_addr_mode:14 dest_reg_addr:0
SFPSTORE 0x72 lreg_ind:20 instr_mod0:16 sfpu_addr_mode:14 dest_reg_addr:0
SHIFTXB 0x18 addr_mode:15 rot_shift:10 shift_row:0
UNPACR 0x42 Unpack_block_selection:23 AddrMode:15 CfgContextCntInc:13 CfgContextId:10 AddrCntContextId:8 OvrdThreadId:7 SetDatValid:6 rareb_en:5 ZeroWrite2:4 AutoIncContextID:3 RowSearch:2 SearchCacheFlush:1 Last:0
UNPACR_NOP 0x43 Unpack_block_selection:23 NoOp:0
ZEROACC 0x10 clear_mode:19 AddrMode:15 dst:0
`;

/** Blackhole rows that differ from Wormhole's, and Blackhole-only instructions. */
export const BLACKHOLE_MACROS = `
APOOL3S1 0x25 clear_dvalid:22 pool_addr_mode:15 index_en:14 dst:0
APOOL3S2 0x32 clear_dvalid:22 pool_addr_mode:15 index_en:14 dst:0
CFGSHIFTMASK 0xb8 disable_mask_on_old_val:23 operation:20 mask_width:15 right_cshift_amt:10 scratch_sel:8 CfgReg:0
CONV3S1 0x22 clear_dvalid:22 rotate_weights:17 addr_mode:14 dst:0
CONV3S2 0x23 clear_dvalid:22 rotate_weights:17 addr_mode:14 dst:0
DOTPV 0x29 clear_dvalid:22 dest_accum_en:21 instr_mod19:19 addr_mode:14 dst:0
ELWADD 0x28 clear_dvalid:22 dest_accum_en:21 instr_mod19:19 addr_mode:14 dst:0
ELWMUL 0x27 clear_dvalid:22 dest_accum_en:21 instr_mod19:19 addr_mode:14 dst:0
ELWSUB 0x30 clear_dvalid:22 dest_accum_en:21 instr_mod19:19 addr_mode:14 dst:0
GAPOOL 0x34 clear_dvalid:22 instr_mod19:19 pool_addr_mode:15 max_pool_index_en:14 dst:0
GMPOOL 0x33 clear_dvalid:22 instr_mod19:19 pool_addr_mode:15 max_pool_index_en:14 dst:0
MFCONV3S1 0x3a clear_dvalid:22 rotate_weights:17 addr_mode:14 dst:0
MOP 0x01 mop_type:23 loop_count:16 zmask_lo16_or_loop_count:0
MOVA2D 0x12 dest_32b_lo:23 src:17 addr_mode:14 instr_mod:12 dst:0
MOVB2A 0x0b srca:17 addr_mode:14 instr_mod:12 srcb:0
MOVB2D 0x13 dest_32b_lo:23 src:17 addr_mode:14 movb2d_instr_mod:11 dst:0
MOVD2A 0x08 dest_32b_lo:23 src:17 addr_mode:14 instr_mod:12 dst:0
MOVD2B 0x0a dest_32b_lo:23 src:17 addr_mode:14 instr_mod:12 dst:0
MOVDBGA2D 0x09 dest_32b_lo:23 src:17 addr_mode:14 instr_mod:12 dst:0
MOVDBGB2D 0x0c dest_32b_lo:23 src:17 addr_mode:14 movb2d_instr_mod:11 dst:0
MPOOL3S1 0x24 clear_dvalid:22 pool_addr_mode:15 index_en:14 dst:0
MPOOL3S2 0x31 clear_dvalid:22 pool_addr_mode:15 index_en:14 dst:0
MVMUL 0x26 clear_dvalid:22 instr_mod19:19 addr_mode:14 dst:0
PACR 0x41 CfgContext:21 RowPadZero:18 DstAccessMode:17 AddrMode:15 AddrCntContext:13 ZeroWrite:12 ReadIntfSel:8 OvrdThreadId:7 Concat:4 CtxtCtrl:2 Flush:1 Last:0
PACR_SETREG 0x4a Push:23 ModeSel:22 Unused:12 DisableStall:10 AddrSel:8 StreamId:2 Flush:1 Last:0
RESOURCEDECL 0x05 linger_time:13 resources:4 op_class:0
SFPARECIP 0x99 imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPGT 0x97 imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPLE 0x96 imm12_math:12 lreg_c:8 lreg_dest:4 instr_mod1:0
SFPLOAD 0x70 lreg_ind:20 instr_mod0:16 sfpu_addr_mode:13 dest_reg_addr:0
SFPLOADMACRO 0x93 lreg_ind:20 instr_mod0:16 sfpu_addr_mode:13 dest_reg_addr:0
SFPMUL24 0x98 lreg_src_a:16 lreg_src_b:12 lreg_src_c:8 lreg_dest:4 instr_mod1:0
SFPSTORE 0x72 lreg_ind:20 instr_mod0:16 sfpu_addr_mode:13 dest_reg_addr:0
SHIFTXB 0x18 addr_mode:14 rot_shift:10 shift_row:0
STREAMWAIT 0xa7 stall_res:15 target_value:4 target_sel:3 wait_stream_sel:0
STREAMWRCFG 0xb7 stream_id_sel:21 StreamRegAddr:11 CfgReg:0
UNPACR 0x42 Unpack_block_selection:23 AddrMode:15 CfgContextCntInc:13 CfgContextId:10 AddrCntContextId:8 OvrdThreadId:7 SetDatValid:6 srcb_bcast:5 ZeroWrite2:4 AutoIncContextID:3 RowSearch:2 SearchCacheFlush:1 Last:0
UNPACR_NOP 0x43 Unpacker_Select:23 Stream_Id:16 Msg_Clr_Cnt:12 Set_Dvalid:8 Clr_to1_fmt_Ctrl:6 Stall_Clr_Cntrl:5 Bank_Clr_Ctrl:4 Src_ClrVal_Ctrl:2 Unpack_Pop:0
ZEROACC 0x10 clear_mode:19 use_32_bit_mode:18 clear_zero_flags:17 addr_mode:14 where:0
`;
