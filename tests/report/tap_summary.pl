#!/usr/bin/perl
# What a TAP reader nobody here wrote (Perl's TAP::Parser, the one `prove` uses) finds in a report
# of `clawperator --report tap=FILE`: the version, the plan, each test (number, ok, description,
# directive and its explanation), parse errors. Printed as one JSON object (JSON::PP, core Perl)
# for tests/integration/report_test.cpp.
use strict;
use warnings;
use JSON::PP;
use TAP::Parser;

open(my $in, '<:raw', $ARGV[0]) or die "cannot open $ARGV[0]: $!";
my $text = do { local $/; <$in> };
my $parser = TAP::Parser->new({tap => $text, version => 13});
my @tests;
while (my $result = $parser->next) {
  next unless $result->is_test;
  push @tests, {
    number => $result->number + 0,
    ok => $result->is_ok ? JSON::PP::true : JSON::PP::false,
    actualOk => $result->is_actual_ok ? JSON::PP::true : JSON::PP::false,
    description => $result->description,
    directive => $result->directive,
    explanation => $result->explanation,
  };
}
print JSON::PP->new->canonical->encode({
  version => $parser->version + 0,
  plan => $parser->plan,
  testsPlanned => ($parser->tests_planned // 0) + 0,
  passed => scalar($parser->passed) + 0,
  failed => scalar($parser->failed) + 0,
  skipped => scalar($parser->skipped) + 0,
  parseErrors => [$parser->parse_errors],
  tests => \@tests,
}), "\n";
