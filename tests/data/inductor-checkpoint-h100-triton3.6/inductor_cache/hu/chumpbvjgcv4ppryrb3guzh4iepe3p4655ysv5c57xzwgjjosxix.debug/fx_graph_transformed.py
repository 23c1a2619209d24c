class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "bf16[64, 256]", primals_2: "bf16[256]", primals_3: "bf16[256]", primals_4: "bf16[512, 256]", primals_5: "bf16[512]", primals_6: "bf16[256, 512]", primals_7: "bf16[256]", primals_8: "bf16[256]", primals_9: "bf16[256]", primals_10: "bf16[256]", primals_11: "bf16[512, 256]", primals_12: "bf16[512]", primals_13: "bf16[256, 512]", primals_14: "bf16[256]", primals_15: "bf16[256]", primals_16: "bf16[16, 256]", add_3: "bf16[64, 256]", addmm_4: "bf16[64, 16]", unsqueeze_1: "f32[64, 1]", tangents_1: "f32[]"):
        # File: /workspace/benchmarks/provenance_model.py:49 in forward, code: return torch.logsumexp(logits, dim=-1).mean()
        expand: "f32[64]" = torch.ops.aten.expand.default(tangents_1, [64]);  tangents_1 = None
        div_2: "f32[64]" = torch.ops.aten.div.Scalar(expand, 64);  expand = None
        unsqueeze: "f32[64, 1]" = torch.ops.aten.unsqueeze.default(div_2, -1);  div_2 = None

        # File: /workspace/benchmarks/provenance_model.py:48 in forward, code: logits = self.head(x).float()
        convert_element_type_27: "f32[64, 16]" = torch.ops.prims.convert_element_type.default(addmm_4, torch.float32);  addmm_4 = None

        # File: /workspace/benchmarks/provenance_model.py:49 in forward, code: return torch.logsumexp(logits, dim=-1).mean()
        sub_5: "f32[64, 16]" = torch.ops.aten.sub.Tensor(convert_element_type_27, unsqueeze_1);  convert_element_type_27 = unsqueeze_1 = None
        exp_3: "f32[64, 16]" = torch.ops.aten.exp.default(sub_5);  sub_5 = None
        mul_14: "f32[64, 16]" = torch.ops.aten.mul.Tensor(unsqueeze, exp_3);  unsqueeze = exp_3 = None

        # File: /workspace/benchmarks/provenance_model.py:48 in forward, code: logits = self.head(x).float()
        convert_element_type_28: "bf16[64, 16]" = torch.ops.prims.convert_element_type.default(mul_14, torch.bfloat16);  mul_14 = None
        permute_4: "bf16[256, 16]" = torch.ops.aten.permute.default(primals_16, [1, 0]);  primals_16 = None
        permute_5: "bf16[16, 256]" = torch.ops.aten.permute.default(permute_4, [1, 0]);  permute_4 = None
        mm: "bf16[64, 256]" = torch.ops.aten.mm.default(convert_element_type_28, permute_5);  permute_5 = None
        permute_6: "bf16[16, 64]" = torch.ops.aten.permute.default(convert_element_type_28, [1, 0])

        # ac_graph_id: 4 - PREFER_RECOMPUTE File: /workspace/benchmarks/provenance_model.py:20 in forward, code: y = self.norm(x)
        convert_element_type_12: "f32[64, 256]" = torch.ops.prims.convert_element_type.default(add_3, torch.float32)
        var_mean_1 = torch.ops.aten.var_mean.correction(convert_element_type_12, [1], correction = 0, keepdim = True)
        getitem_2: "f32[64, 1]" = var_mean_1[0]
        getitem_3: "f32[64, 1]" = var_mean_1[1];  var_mean_1 = None
        add_4: "f32[64, 1]" = torch.ops.aten.add.Tensor(getitem_2, 1e-05);  getitem_2 = None
        rsqrt_1: "f32[64, 1]" = torch.ops.aten.rsqrt.default(add_4);  add_4 = None
        sub_2: "f32[64, 256]" = torch.ops.aten.sub.Tensor(convert_element_type_12, getitem_3);  convert_element_type_12 = getitem_3 = None
        mul_7: "f32[64, 256]" = torch.ops.aten.mul.Tensor(sub_2, rsqrt_1);  sub_2 = None
        mul_8: "f32[64, 256]" = torch.ops.aten.mul.Tensor(mul_7, primals_9)
        add_5: "f32[64, 256]" = torch.ops.aten.add.Tensor(mul_8, primals_10);  mul_8 = primals_10 = None
        convert_element_type_13: "bf16[64, 256]" = torch.ops.prims.convert_element_type.default(add_5, torch.bfloat16);  add_5 = None

        # ac_graph_id: 4 - PREFER_RECOMPUTE File: /workspace/benchmarks/provenance_model.py:21 in forward, code: y = torch.nn.functional.gelu(self.up(y))
        permute_2: "bf16[256, 512]" = torch.ops.aten.permute.default(primals_11, [1, 0]);  primals_11 = None
        addmm_2: "bf16[64, 512]" = torch.ops.aten.addmm.default(primals_12, convert_element_type_13, permute_2);  primals_12 = None
        convert_element_type_17: "f32[64, 512]" = torch.ops.prims.convert_element_type.default(addmm_2, torch.float32);  addmm_2 = None
        mul_9: "f32[64, 512]" = torch.ops.aten.mul.Tensor(convert_element_type_17, 0.5)
        mul_10: "f32[64, 512]" = torch.ops.aten.mul.Tensor(convert_element_type_17, 0.7071067811865476)
        erf_1: "f32[64, 512]" = torch.ops.aten.erf.default(mul_10);  mul_10 = None
        add_6: "f32[64, 512]" = torch.ops.aten.add.Tensor(erf_1, 1);  erf_1 = None
        mul_11: "f32[64, 512]" = torch.ops.aten.mul.Tensor(mul_9, add_6);  mul_9 = None

        # ac_graph_id: 4 - PREFER_RECOMPUTE No stacktrace found for following nodes
        prepare_softmax_online_default_1 = torch.ops.prims.prepare_softmax_online.default(mul_11, -1)
        getitem_6: "f32[64, 1]" = prepare_softmax_online_default_1[0]
        getitem_7: "f32[64, 1]" = prepare_softmax_online_default_1[1];  prepare_softmax_online_default_1 = None
        sub_tensor_1: "f32[64, 512]" = torch.ops.aten.sub.Tensor(mul_11, getitem_6);  mul_11 = getitem_6 = None
        exp_default_1: "f32[64, 512]" = torch.ops.aten.exp.default(sub_tensor_1);  sub_tensor_1 = None

        # ac_graph_id: 4 - PREFER_RECOMPUTE File: /workspace/benchmarks/provenance_model.py:22 in forward, code: y = torch.softmax(y, dim=-1) * 2.0
        div_1: "f32[64, 512]" = torch.ops.aten.div.Tensor(exp_default_1, getitem_7);  exp_default_1 = getitem_7 = None
        convert_element_type_20: "bf16[64, 512]" = torch.ops.prims.convert_element_type.default(div_1, torch.bfloat16);  div_1 = None
        mul_12: "bf16[64, 512]" = torch.ops.aten.mul.Tensor(convert_element_type_20, 2.0)

        # ac_graph_id: 4 - PREFER_RECOMPUTE File: /workspace/benchmarks/provenance_model.py:23 in forward, code: y = self.down(y)
        permute_3: "bf16[512, 256]" = torch.ops.aten.permute.default(primals_13, [1, 0]);  primals_13 = None
        addmm_3: "bf16[64, 256]" = torch.ops.aten.addmm.default(primals_14, mul_12, permute_3);  primals_14 = None

        # ac_graph_id: 4 - PREFER_RECOMPUTE File: /workspace/benchmarks/provenance_model.py:24 in forward, code: return x + y * self.scale
        mul_13: "bf16[64, 256]" = torch.ops.aten.mul.Tensor(addmm_3, primals_15)
        add_7: "bf16[64, 256]" = torch.ops.aten.add.Tensor(add_3, mul_13);  add_3 = mul_13 = None

        # File: /workspace/benchmarks/provenance_model.py:48 in forward, code: logits = self.head(x).float()
        mm_1: "bf16[16, 256]" = torch.ops.aten.mm.default(permute_6, add_7);  permute_6 = add_7 = None
        sum_4: "bf16[1, 16]" = torch.ops.aten.sum.dim_IntList(convert_element_type_28, [0], True);  convert_element_type_28 = None
        view: "bf16[16]" = torch.ops.aten.reshape.default(sum_4, [16]);  sum_4 = None

        # File: /workspace/benchmarks/provenance_model.py:24 in forward, code: return x + y * self.scale
        mul_15: "bf16[64, 256]" = torch.ops.aten.mul.Tensor(mm, addmm_3);  addmm_3 = None
        mul_16: "bf16[64, 256]" = torch.ops.aten.mul.Tensor(mm, primals_15);  primals_15 = None
        sum_5: "bf16[1, 256]" = torch.ops.aten.sum.dim_IntList(mul_15, [0], True);  mul_15 = None
        view_1: "bf16[256]" = torch.ops.aten.reshape.default(sum_5, [256]);  sum_5 = None

        # File: /workspace/benchmarks/provenance_model.py:23 in forward, code: y = self.down(y)
        permute_9: "bf16[256, 512]" = torch.ops.aten.permute.default(permute_3, [1, 0]);  permute_3 = None
        mm_2: "bf16[64, 512]" = torch.ops.aten.mm.default(mul_16, permute_9);  permute_9 = None
        permute_10: "bf16[256, 64]" = torch.ops.aten.permute.default(mul_16, [1, 0])
        mm_3: "bf16[256, 512]" = torch.ops.aten.mm.default(permute_10, mul_12);  permute_10 = mul_12 = None
        sum_6: "bf16[1, 256]" = torch.ops.aten.sum.dim_IntList(mul_16, [0], True);  mul_16 = None
        view_2: "bf16[256]" = torch.ops.aten.reshape.default(sum_6, [256]);  sum_6 = None

        # File: /workspace/benchmarks/provenance_model.py:22 in forward, code: y = torch.softmax(y, dim=-1) * 2.0
        mul_17: "bf16[64, 512]" = torch.ops.aten.mul.Tensor(mm_2, 2.0);  mm_2 = None
        convert_element_type_37: "f32[64, 512]" = torch.ops.prims.convert_element_type.default(mul_17, torch.float32);  mul_17 = None
        convert_element_type_38: "f32[64, 512]" = torch.ops.prims.convert_element_type.default(convert_element_type_20, torch.float32);  convert_element_type_20 = None
        mul_18: "f32[64, 512]" = torch.ops.aten.mul.Tensor(convert_element_type_37, convert_element_type_38);  convert_element_type_37 = None
        sum_7: "f32[64, 1]" = torch.ops.aten.sum.dim_IntList(mul_18, [-1], True)
        neg: "f32[64, 512]" = torch.ops.aten.neg.default(convert_element_type_38);  convert_element_type_38 = None
        fma: "f32[64, 512]" = torch.ops.prims.fma.default(neg, sum_7, mul_18);  neg = sum_7 = mul_18 = None

        # File: /workspace/benchmarks/provenance_model.py:21 in forward, code: y = torch.nn.functional.gelu(self.up(y))
        mul_20: "f32[64, 512]" = torch.ops.aten.mul.Tensor(add_6, 0.5);  add_6 = None
        mul_21: "f32[64, 512]" = torch.ops.aten.mul.Tensor(convert_element_type_17, convert_element_type_17)
        mul_22: "f32[64, 512]" = torch.ops.aten.mul.Tensor(mul_21, -0.5);  mul_21 = None
        exp_4: "f32[64, 512]" = torch.ops.aten.exp.default(mul_22);  mul_22 = None
        mul_23: "f32[64, 512]" = torch.ops.aten.mul.Tensor(exp_4, 0.3989422804014327);  exp_4 = None
        mul_24: "f32[64, 512]" = torch.ops.aten.mul.Tensor(convert_element_type_17, mul_23);  convert_element_type_17 = mul_23 = None
        add_10: "f32[64, 512]" = torch.ops.aten.add.Tensor(mul_20, mul_24);  mul_20 = mul_24 = None
        mul_25: "f32[64, 512]" = torch.ops.aten.mul.Tensor(fma, add_10);  fma = add_10 = None
        convert_element_type_42: "bf16[64, 512]" = torch.ops.prims.convert_element_type.default(mul_25, torch.bfloat16);  mul_25 = None
        permute_13: "bf16[512, 256]" = torch.ops.aten.permute.default(permute_2, [1, 0]);  permute_2 = None
        mm_4: "bf16[64, 256]" = torch.ops.aten.mm.default(convert_element_type_42, permute_13);  permute_13 = None
        permute_14: "bf16[512, 64]" = torch.ops.aten.permute.default(convert_element_type_42, [1, 0])
        mm_5: "bf16[512, 256]" = torch.ops.aten.mm.default(permute_14, convert_element_type_13);  permute_14 = convert_element_type_13 = None
        sum_8: "bf16[1, 512]" = torch.ops.aten.sum.dim_IntList(convert_element_type_42, [0], True);  convert_element_type_42 = None
        view_3: "bf16[512]" = torch.ops.aten.reshape.default(sum_8, [512]);  sum_8 = None

        # File: /workspace/benchmarks/provenance_model.py:20 in forward, code: y = self.norm(x)
        convert_element_type_47: "f32[64, 256]" = torch.ops.prims.convert_element_type.default(mm_4, torch.float32);  mm_4 = None
        convert_element_type_49: "f32[256]" = torch.ops.prims.convert_element_type.default(primals_9, torch.float32);  primals_9 = None
        mul_27: "f32[64, 256]" = torch.ops.aten.mul.Tensor(convert_element_type_47, convert_element_type_49);  convert_element_type_49 = None
        mul_28: "f32[64, 256]" = torch.ops.aten.mul.Tensor(mul_27, 256)
        sum_9: "f32[64, 1]" = torch.ops.aten.sum.dim_IntList(mul_27, [1], True)
        mul_29: "f32[64, 256]" = torch.ops.aten.mul.Tensor(mul_27, mul_7);  mul_27 = None
        sum_10: "f32[64, 1]" = torch.ops.aten.sum.dim_IntList(mul_29, [1], True);  mul_29 = None
        mul_30: "f32[64, 256]" = torch.ops.aten.mul.Tensor(mul_7, sum_10);  sum_10 = None
        sub_7: "f32[64, 256]" = torch.ops.aten.sub.Tensor(mul_28, sum_9);  mul_28 = sum_9 = None
        sub_8: "f32[64, 256]" = torch.ops.aten.sub.Tensor(sub_7, mul_30);  sub_7 = mul_30 = None
        div_3: "f32[64, 1]" = torch.ops.aten.div.Tensor(rsqrt_1, 256);  rsqrt_1 = None
        mul_31: "f32[64, 256]" = torch.ops.aten.mul.Tensor(div_3, sub_8);  div_3 = sub_8 = None
        mul_32: "f32[64, 256]" = torch.ops.aten.mul.Tensor(convert_element_type_47, mul_7);  mul_7 = None
        sum_11: "f32[256]" = torch.ops.aten.sum.dim_IntList(mul_32, [0]);  mul_32 = None
        sum_12: "f32[256]" = torch.ops.aten.sum.dim_IntList(convert_element_type_47, [0]);  convert_element_type_47 = None
        convert_element_type_51: "bf16[64, 256]" = torch.ops.prims.convert_element_type.default(mul_31, torch.bfloat16);  mul_31 = None
        convert_element_type_52: "bf16[256]" = torch.ops.prims.convert_element_type.default(sum_11, torch.bfloat16);  sum_11 = None
        convert_element_type_53: "bf16[256]" = torch.ops.prims.convert_element_type.default(sum_12, torch.bfloat16);  sum_12 = None
        add_11: "bf16[64, 256]" = torch.ops.aten.add.Tensor(mm, convert_element_type_51);  mm = convert_element_type_51 = None

        # ac_graph_id: 3 - PREFER_RECOMPUTE File: /workspace/benchmarks/provenance_model.py:20 in forward, code: y = self.norm(x)
        convert_element_type: "f32[64, 256]" = torch.ops.prims.convert_element_type.default(primals_1, torch.float32);  primals_1 = None
        var_mean = torch.ops.aten.var_mean.correction(convert_element_type, [1], correction = 0, keepdim = True)
        getitem: "f32[64, 1]" = var_mean[0]
        getitem_1: "f32[64, 1]" = var_mean[1];  var_mean = None
        add: "f32[64, 1]" = torch.ops.aten.add.Tensor(getitem, 1e-05);  getitem = None
        rsqrt: "f32[64, 1]" = torch.ops.aten.rsqrt.default(add);  add = None
        sub: "f32[64, 256]" = torch.ops.aten.sub.Tensor(convert_element_type, getitem_1);  convert_element_type = getitem_1 = None
        mul: "f32[64, 256]" = torch.ops.aten.mul.Tensor(sub, rsqrt);  sub = None
        mul_1: "f32[64, 256]" = torch.ops.aten.mul.Tensor(mul, primals_2)
        add_1: "f32[64, 256]" = torch.ops.aten.add.Tensor(mul_1, primals_3);  mul_1 = primals_3 = None
        convert_element_type_1: "bf16[64, 256]" = torch.ops.prims.convert_element_type.default(add_1, torch.bfloat16);  add_1 = None

        # ac_graph_id: 3 - PREFER_RECOMPUTE File: /workspace/benchmarks/provenance_model.py:21 in forward, code: y = torch.nn.functional.gelu(self.up(y))
        permute: "bf16[256, 512]" = torch.ops.aten.permute.default(primals_4, [1, 0]);  primals_4 = None
        addmm: "bf16[64, 512]" = torch.ops.aten.addmm.default(primals_5, convert_element_type_1, permute);  primals_5 = None
        convert_element_type_5: "f32[64, 512]" = torch.ops.prims.convert_element_type.default(addmm, torch.float32);  addmm = None
        mul_2: "f32[64, 512]" = torch.ops.aten.mul.Tensor(convert_element_type_5, 0.5)
        mul_3: "f32[64, 512]" = torch.ops.aten.mul.Tensor(convert_element_type_5, 0.7071067811865476)
        erf: "f32[64, 512]" = torch.ops.aten.erf.default(mul_3);  mul_3 = None
        add_2: "f32[64, 512]" = torch.ops.aten.add.Tensor(erf, 1);  erf = None
        mul_4: "f32[64, 512]" = torch.ops.aten.mul.Tensor(mul_2, add_2);  mul_2 = None

        # ac_graph_id: 3 - PREFER_RECOMPUTE No stacktrace found for following nodes
        prepare_softmax_online_default = torch.ops.prims.prepare_softmax_online.default(mul_4, -1)
        getitem_4: "f32[64, 1]" = prepare_softmax_online_default[0]
        getitem_5: "f32[64, 1]" = prepare_softmax_online_default[1];  prepare_softmax_online_default = None
        sub_tensor: "f32[64, 512]" = torch.ops.aten.sub.Tensor(mul_4, getitem_4);  mul_4 = getitem_4 = None
        exp_default: "f32[64, 512]" = torch.ops.aten.exp.default(sub_tensor);  sub_tensor = None

        # ac_graph_id: 3 - PREFER_RECOMPUTE File: /workspace/benchmarks/provenance_model.py:22 in forward, code: y = torch.softmax(y, dim=-1) * 2.0
        div: "f32[64, 512]" = torch.ops.aten.div.Tensor(exp_default, getitem_5);  exp_default = getitem_5 = None
        convert_element_type_8: "bf16[64, 512]" = torch.ops.prims.convert_element_type.default(div, torch.bfloat16);  div = None
        mul_5: "bf16[64, 512]" = torch.ops.aten.mul.Tensor(convert_element_type_8, 2.0)

        # ac_graph_id: 3 - PREFER_RECOMPUTE File: /workspace/benchmarks/provenance_model.py:23 in forward, code: y = self.down(y)
        permute_1: "bf16[512, 256]" = torch.ops.aten.permute.default(primals_6, [1, 0]);  primals_6 = None
        addmm_1: "bf16[64, 256]" = torch.ops.aten.addmm.default(primals_7, mul_5, permute_1);  primals_7 = None

        # File: /workspace/benchmarks/provenance_model.py:24 in forward, code: return x + y * self.scale
        mul_33: "bf16[64, 256]" = torch.ops.aten.mul.Tensor(add_11, addmm_1);  addmm_1 = None
        mul_34: "bf16[64, 256]" = torch.ops.aten.mul.Tensor(add_11, primals_8);  primals_8 = None
        sum_13: "bf16[1, 256]" = torch.ops.aten.sum.dim_IntList(mul_33, [0], True);  mul_33 = None
        view_4: "bf16[256]" = torch.ops.aten.reshape.default(sum_13, [256]);  sum_13 = None

        # File: /workspace/benchmarks/provenance_model.py:23 in forward, code: y = self.down(y)
        permute_17: "bf16[256, 512]" = torch.ops.aten.permute.default(permute_1, [1, 0]);  permute_1 = None
        mm_6: "bf16[64, 512]" = torch.ops.aten.mm.default(mul_34, permute_17);  permute_17 = None
        permute_18: "bf16[256, 64]" = torch.ops.aten.permute.default(mul_34, [1, 0])
        mm_7: "bf16[256, 512]" = torch.ops.aten.mm.default(permute_18, mul_5);  permute_18 = mul_5 = None
        sum_14: "bf16[1, 256]" = torch.ops.aten.sum.dim_IntList(mul_34, [0], True);  mul_34 = None
        view_5: "bf16[256]" = torch.ops.aten.reshape.default(sum_14, [256]);  sum_14 = None

        # File: /workspace/benchmarks/provenance_model.py:22 in forward, code: y = torch.softmax(y, dim=-1) * 2.0
        mul_35: "bf16[64, 512]" = torch.ops.aten.mul.Tensor(mm_6, 2.0);  mm_6 = None
        convert_element_type_58: "f32[64, 512]" = torch.ops.prims.convert_element_type.default(mul_35, torch.float32);  mul_35 = None
        convert_element_type_59: "f32[64, 512]" = torch.ops.prims.convert_element_type.default(convert_element_type_8, torch.float32);  convert_element_type_8 = None
        mul_36: "f32[64, 512]" = torch.ops.aten.mul.Tensor(convert_element_type_58, convert_element_type_59);  convert_element_type_58 = None
        sum_15: "f32[64, 1]" = torch.ops.aten.sum.dim_IntList(mul_36, [-1], True)
        neg_1: "f32[64, 512]" = torch.ops.aten.neg.default(convert_element_type_59);  convert_element_type_59 = None
        fma_1: "f32[64, 512]" = torch.ops.prims.fma.default(neg_1, sum_15, mul_36);  neg_1 = sum_15 = mul_36 = None

        # File: /workspace/benchmarks/provenance_model.py:21 in forward, code: y = torch.nn.functional.gelu(self.up(y))
        mul_38: "f32[64, 512]" = torch.ops.aten.mul.Tensor(add_2, 0.5);  add_2 = None
        mul_39: "f32[64, 512]" = torch.ops.aten.mul.Tensor(convert_element_type_5, convert_element_type_5)
        mul_40: "f32[64, 512]" = torch.ops.aten.mul.Tensor(mul_39, -0.5);  mul_39 = None
        exp_5: "f32[64, 512]" = torch.ops.aten.exp.default(mul_40);  mul_40 = None
        mul_41: "f32[64, 512]" = torch.ops.aten.mul.Tensor(exp_5, 0.3989422804014327);  exp_5 = None
        mul_42: "f32[64, 512]" = torch.ops.aten.mul.Tensor(convert_element_type_5, mul_41);  convert_element_type_5 = mul_41 = None
        add_13: "f32[64, 512]" = torch.ops.aten.add.Tensor(mul_38, mul_42);  mul_38 = mul_42 = None
        mul_43: "f32[64, 512]" = torch.ops.aten.mul.Tensor(fma_1, add_13);  fma_1 = add_13 = None
        convert_element_type_63: "bf16[64, 512]" = torch.ops.prims.convert_element_type.default(mul_43, torch.bfloat16);  mul_43 = None
        permute_21: "bf16[512, 256]" = torch.ops.aten.permute.default(permute, [1, 0]);  permute = None
        mm_8: "bf16[64, 256]" = torch.ops.aten.mm.default(convert_element_type_63, permute_21);  permute_21 = None
        permute_22: "bf16[512, 64]" = torch.ops.aten.permute.default(convert_element_type_63, [1, 0])
        mm_9: "bf16[512, 256]" = torch.ops.aten.mm.default(permute_22, convert_element_type_1);  permute_22 = convert_element_type_1 = None
        sum_16: "bf16[1, 512]" = torch.ops.aten.sum.dim_IntList(convert_element_type_63, [0], True);  convert_element_type_63 = None
        view_6: "bf16[512]" = torch.ops.aten.reshape.default(sum_16, [512]);  sum_16 = None

        # File: /workspace/benchmarks/provenance_model.py:20 in forward, code: y = self.norm(x)
        convert_element_type_68: "f32[64, 256]" = torch.ops.prims.convert_element_type.default(mm_8, torch.float32);  mm_8 = None
        convert_element_type_70: "f32[256]" = torch.ops.prims.convert_element_type.default(primals_2, torch.float32);  primals_2 = None
        mul_45: "f32[64, 256]" = torch.ops.aten.mul.Tensor(convert_element_type_68, convert_element_type_70);  convert_element_type_70 = None
        mul_46: "f32[64, 256]" = torch.ops.aten.mul.Tensor(mul_45, 256)
        sum_17: "f32[64, 1]" = torch.ops.aten.sum.dim_IntList(mul_45, [1], True)
        mul_47: "f32[64, 256]" = torch.ops.aten.mul.Tensor(mul_45, mul);  mul_45 = None
        sum_18: "f32[64, 1]" = torch.ops.aten.sum.dim_IntList(mul_47, [1], True);  mul_47 = None
        mul_48: "f32[64, 256]" = torch.ops.aten.mul.Tensor(mul, sum_18);  sum_18 = None
        sub_10: "f32[64, 256]" = torch.ops.aten.sub.Tensor(mul_46, sum_17);  mul_46 = sum_17 = None
        sub_11: "f32[64, 256]" = torch.ops.aten.sub.Tensor(sub_10, mul_48);  sub_10 = mul_48 = None
        div_4: "f32[64, 1]" = torch.ops.aten.div.Tensor(rsqrt, 256);  rsqrt = None
        mul_49: "f32[64, 256]" = torch.ops.aten.mul.Tensor(div_4, sub_11);  div_4 = sub_11 = None
        mul_50: "f32[64, 256]" = torch.ops.aten.mul.Tensor(convert_element_type_68, mul);  mul = None
        sum_19: "f32[256]" = torch.ops.aten.sum.dim_IntList(mul_50, [0]);  mul_50 = None
        sum_20: "f32[256]" = torch.ops.aten.sum.dim_IntList(convert_element_type_68, [0]);  convert_element_type_68 = None
        convert_element_type_72: "bf16[64, 256]" = torch.ops.prims.convert_element_type.default(mul_49, torch.bfloat16);  mul_49 = None
        convert_element_type_73: "bf16[256]" = torch.ops.prims.convert_element_type.default(sum_19, torch.bfloat16);  sum_19 = None
        convert_element_type_74: "bf16[256]" = torch.ops.prims.convert_element_type.default(sum_20, torch.bfloat16);  sum_20 = None
        add_14: "bf16[64, 256]" = torch.ops.aten.add.Tensor(add_11, convert_element_type_72);  add_11 = convert_element_type_72 = None
        return (add_14, convert_element_type_73, convert_element_type_74, mm_9, view_6, mm_7, view_5, view_4, convert_element_type_52, convert_element_type_53, mm_5, view_3, mm_3, view_2, view_1, mm_1, view)
