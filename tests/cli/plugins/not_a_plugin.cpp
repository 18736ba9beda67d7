// A loadable module with no ptespec entry point: --plugin must refuse it.
extern "C" __attribute__((visibility("default"))) int not_a_ptespec_plugin(void)
{
	return 42;
}
