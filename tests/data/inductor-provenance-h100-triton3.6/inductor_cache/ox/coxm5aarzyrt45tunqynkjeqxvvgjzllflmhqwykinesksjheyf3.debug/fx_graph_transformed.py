class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "bf16[256]", primals_2: "bf16[256]", primals_3: "bf16[64, 256]", primals_4: "bf16[512, 256]", primals_5: "bf16[512]", primals_6: "bf16[256, 512]", primals_7: "bf16[256]", primals_8: "bf16[256]", primals_9: "bf16[256]", primals_10: "bf16[256]", primals_11: "bf16[512, 256]", primals_12: "bf16[512]", primals_13: "bf16[256, 512]", primals_14: "bf16[256]", primals_15: "bf16[256]", primals_16: "bf16[16, 256]", primals_17: "bf16[16]"):
        # File: /workspace/benchmarks/provenance_model.py:19 in forward, code: y = self.norm(x)
        convert_element_type: "f32[64, 256]" = torch.ops.prims.convert_element_type.default(primals_3, torch.float32)
        var_mean = torch.ops.aten.var_mean.correction(convert_element_type, [1], correction = 0, keepdim = True)
        getitem: "f32[64, 1]" = var_mean[0]
        getitem_1: "f32[64, 1]" = var_mean[1];  var_mean = None
        add: "f32[64, 1]" = torch.ops.aten.add.Tensor(getitem, 1e-05);  getitem = None
        rsqrt: "f32[64, 1]" = torch.ops.aten.rsqrt.default(add);  add = None
        sub: "f32[64, 256]" = torch.ops.aten.sub.Tensor(convert_element_type, getitem_1);  convert_element_type = None
        mul: "f32[64, 256]" = torch.ops.aten.mul.Tensor(sub, rsqrt);  sub = None
        mul_1: "f32[64, 256]" = torch.ops.aten.mul.Tensor(mul, primals_1);  mul = None
        add_1: "f32[64, 256]" = torch.ops.aten.add.Tensor(mul_1, primals_2);  mul_1 = primals_2 = None
        convert_element_type_1: "bf16[64, 256]" = torch.ops.prims.convert_element_type.default(add_1, torch.bfloat16);  add_1 = None

        # File: /workspace/benchmarks/provenance_model.py:20 in forward, code: y = torch.nn.functional.gelu(self.up(y))
        permute: "bf16[256, 512]" = torch.ops.aten.permute.default(primals_4, [1, 0])
        addmm: "bf16[64, 512]" = torch.ops.aten.addmm.default(primals_5, convert_element_type_1, permute);  primals_5 = permute = None
        convert_element_type_5: "f32[64, 512]" = torch.ops.prims.convert_element_type.default(addmm, torch.float32)
        mul_2: "f32[64, 512]" = torch.ops.aten.mul.Tensor(convert_element_type_5, 0.5)
        mul_3: "f32[64, 512]" = torch.ops.aten.mul.Tensor(convert_element_type_5, 0.7071067811865476);  convert_element_type_5 = None
        erf: "f32[64, 512]" = torch.ops.aten.erf.default(mul_3);  mul_3 = None
        add_2: "f32[64, 512]" = torch.ops.aten.add.Tensor(erf, 1);  erf = None
        mul_4: "f32[64, 512]" = torch.ops.aten.mul.Tensor(mul_2, add_2);  mul_2 = add_2 = None

        # No stacktrace found for following nodes
        prepare_softmax_online_default_1 = torch.ops.prims.prepare_softmax_online.default(mul_4, -1)
        getitem_6: "f32[64, 1]" = prepare_softmax_online_default_1[0]
        getitem_7: "f32[64, 1]" = prepare_softmax_online_default_1[1];  prepare_softmax_online_default_1 = None
        sub_tensor_1: "f32[64, 512]" = torch.ops.aten.sub.Tensor(mul_4, getitem_6);  mul_4 = None
        exp_default_1: "f32[64, 512]" = torch.ops.aten.exp.default(sub_tensor_1);  sub_tensor_1 = None

        # File: /workspace/benchmarks/provenance_model.py:21 in forward, code: y = torch.softmax(y, dim=-1) * 2.0
        div: "f32[64, 512]" = torch.ops.aten.div.Tensor(exp_default_1, getitem_7);  exp_default_1 = None
        convert_element_type_8: "bf16[64, 512]" = torch.ops.prims.convert_element_type.default(div, torch.bfloat16);  div = None
        mul_5: "bf16[64, 512]" = torch.ops.aten.mul.Tensor(convert_element_type_8, 2.0);  convert_element_type_8 = None

        # File: /workspace/benchmarks/provenance_model.py:22 in forward, code: y = self.down(y)
        permute_1: "bf16[512, 256]" = torch.ops.aten.permute.default(primals_6, [1, 0])
        addmm_1: "bf16[64, 256]" = torch.ops.aten.addmm.default(primals_7, mul_5, permute_1);  primals_7 = permute_1 = None

        # File: /workspace/benchmarks/provenance_model.py:23 in forward, code: return x + y * self.scale
        mul_6: "bf16[64, 256]" = torch.ops.aten.mul.Tensor(addmm_1, primals_8)
        add_3: "bf16[64, 256]" = torch.ops.aten.add.Tensor(primals_3, mul_6);  mul_6 = None

        # File: /workspace/benchmarks/provenance_model.py:19 in forward, code: y = self.norm(x)
        convert_element_type_12: "f32[64, 256]" = torch.ops.prims.convert_element_type.default(add_3, torch.float32)
        var_mean_1 = torch.ops.aten.var_mean.correction(convert_element_type_12, [1], correction = 0, keepdim = True)
        getitem_2: "f32[64, 1]" = var_mean_1[0]
        getitem_3: "f32[64, 1]" = var_mean_1[1];  var_mean_1 = None
        add_4: "f32[64, 1]" = torch.ops.aten.add.Tensor(getitem_2, 1e-05);  getitem_2 = None
        rsqrt_1: "f32[64, 1]" = torch.ops.aten.rsqrt.default(add_4);  add_4 = None
        sub_2: "f32[64, 256]" = torch.ops.aten.sub.Tensor(convert_element_type_12, getitem_3);  convert_element_type_12 = None
        mul_7: "f32[64, 256]" = torch.ops.aten.mul.Tensor(sub_2, rsqrt_1);  sub_2 = None
        mul_8: "f32[64, 256]" = torch.ops.aten.mul.Tensor(mul_7, primals_9);  mul_7 = None
        add_5: "f32[64, 256]" = torch.ops.aten.add.Tensor(mul_8, primals_10);  mul_8 = primals_10 = None
        convert_element_type_13: "bf16[64, 256]" = torch.ops.prims.convert_element_type.default(add_5, torch.bfloat16);  add_5 = None

        # File: /workspace/benchmarks/provenance_model.py:20 in forward, code: y = torch.nn.functional.gelu(self.up(y))
        permute_2: "bf16[256, 512]" = torch.ops.aten.permute.default(primals_11, [1, 0])
        addmm_2: "bf16[64, 512]" = torch.ops.aten.addmm.default(primals_12, convert_element_type_13, permute_2);  primals_12 = permute_2 = None
        convert_element_type_17: "f32[64, 512]" = torch.ops.prims.convert_element_type.default(addmm_2, torch.float32)
        mul_9: "f32[64, 512]" = torch.ops.aten.mul.Tensor(convert_element_type_17, 0.5)
        mul_10: "f32[64, 512]" = torch.ops.aten.mul.Tensor(convert_element_type_17, 0.7071067811865476);  convert_element_type_17 = None
        erf_1: "f32[64, 512]" = torch.ops.aten.erf.default(mul_10);  mul_10 = None
        add_6: "f32[64, 512]" = torch.ops.aten.add.Tensor(erf_1, 1);  erf_1 = None
        mul_11: "f32[64, 512]" = torch.ops.aten.mul.Tensor(mul_9, add_6);  mul_9 = add_6 = None

        # No stacktrace found for following nodes
        prepare_softmax_online_default = torch.ops.prims.prepare_softmax_online.default(mul_11, -1)
        getitem_4: "f32[64, 1]" = prepare_softmax_online_default[0]
        getitem_5: "f32[64, 1]" = prepare_softmax_online_default[1];  prepare_softmax_online_default = None
        sub_tensor: "f32[64, 512]" = torch.ops.aten.sub.Tensor(mul_11, getitem_4);  mul_11 = None
        exp_default: "f32[64, 512]" = torch.ops.aten.exp.default(sub_tensor);  sub_tensor = None

        # File: /workspace/benchmarks/provenance_model.py:21 in forward, code: y = torch.softmax(y, dim=-1) * 2.0
        div_1: "f32[64, 512]" = torch.ops.aten.div.Tensor(exp_default, getitem_5);  exp_default = None
        convert_element_type_20: "bf16[64, 512]" = torch.ops.prims.convert_element_type.default(div_1, torch.bfloat16);  div_1 = None
        mul_12: "bf16[64, 512]" = torch.ops.aten.mul.Tensor(convert_element_type_20, 2.0);  convert_element_type_20 = None

        # File: /workspace/benchmarks/provenance_model.py:22 in forward, code: y = self.down(y)
        permute_3: "bf16[512, 256]" = torch.ops.aten.permute.default(primals_13, [1, 0])
        addmm_3: "bf16[64, 256]" = torch.ops.aten.addmm.default(primals_14, mul_12, permute_3);  primals_14 = permute_3 = None

        # File: /workspace/benchmarks/provenance_model.py:23 in forward, code: return x + y * self.scale
        mul_13: "bf16[64, 256]" = torch.ops.aten.mul.Tensor(addmm_3, primals_15)
        add_7: "bf16[64, 256]" = torch.ops.aten.add.Tensor(add_3, mul_13);  add_3 = mul_13 = None

        # File: /workspace/benchmarks/provenance_model.py:35 in forward, code: logits = self.head(x).float()
        permute_4: "bf16[256, 16]" = torch.ops.aten.permute.default(primals_16, [1, 0])
        addmm_4: "bf16[64, 16]" = torch.ops.aten.addmm.default(primals_17, add_7, permute_4);  primals_17 = permute_4 = None
        convert_element_type_27: "f32[64, 16]" = torch.ops.prims.convert_element_type.default(addmm_4, torch.float32)

        # File: /workspace/benchmarks/provenance_model.py:36 in forward, code: return torch.logsumexp(logits, dim=-1).mean()
        amax_2: "f32[64, 1]" = torch.ops.aten.amax.default(convert_element_type_27, [-1], True)
        abs_1: "f32[64, 1]" = torch.ops.aten.abs.default(amax_2)
        eq: "b8[64, 1]" = torch.ops.aten.eq.Scalar(abs_1, inf);  abs_1 = None
        full_default: "f32[]" = torch.ops.aten.full.default([], 0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0), pin_memory = False)
        where: "f32[64, 1]" = torch.ops.aten.where.self(eq, full_default, amax_2);  eq = full_default = amax_2 = None
        squeeze: "f32[64]" = torch.ops.aten.squeeze.dims(where, [-1])
        sub_4: "f32[64, 16]" = torch.ops.aten.sub.Tensor(convert_element_type_27, where);  convert_element_type_27 = where = None
        exp_2: "f32[64, 16]" = torch.ops.aten.exp.default(sub_4);  sub_4 = None
        sum_3: "f32[64]" = torch.ops.aten.sum.dim_IntList(exp_2, [-1]);  exp_2 = None
        log: "f32[64]" = torch.ops.aten.log.default(sum_3);  sum_3 = None
        add_8: "f32[64]" = torch.ops.aten.add.Tensor(log, squeeze);  log = squeeze = None
        mean: "f32[]" = torch.ops.aten.mean.default(add_8)
        unsqueeze_1: "f32[64, 1]" = torch.ops.aten.unsqueeze.default(add_8, -1);  add_8 = None
        return (mean, primals_1, primals_3, primals_4, primals_6, primals_8, primals_9, primals_11, primals_13, primals_15, primals_16, getitem_1, rsqrt, convert_element_type_1, addmm, getitem_6, getitem_7, mul_5, addmm_1, getitem_3, rsqrt_1, convert_element_type_13, addmm_2, getitem_4, getitem_5, mul_12, addmm_3, add_7, addmm_4, unsqueeze_1)
